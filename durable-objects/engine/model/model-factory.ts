/** Chooses the model client from the environment: an OpenAI-compatible endpoint, else Workers AI. */
import { readEnv } from "../config/env";
import type { RuntimeConfig } from "../config/runtime-config";
import type { ModelClient } from "./model-types";
import { createOpenAIClient, ModelError } from "./openai-client";
import { createWorkersAiClient, type WorkersAiBinding } from "./workers-ai-client";

/** The environment (its OPENAI_* variables, read through the env schema) and the AI binding. */
export interface ModelEnv {
  AI?: WorkersAiBinding;
}

/** Builds the model client; a client that always fails when nothing is configured. */
export function createModelClient(env: ModelEnv, config: RuntimeConfig): ModelClient {
  const { OPENAI_API_KEY, OPENAI_BASE_URL } = readEnv(env);
  if (OPENAI_API_KEY) {
    return createOpenAIClient({ apiKey: OPENAI_API_KEY, baseURL: OPENAI_BASE_URL, retry: config.retry });
  }
  if (env.AI) return createWorkersAiClient(env.AI, config.workersAiModel, config.retry);
  return {
    complete: () =>
      Promise.reject(
        new ModelError(
          "No model is configured: set OPENAI_API_KEY (and OPENAI_BASE_URL) or add a Workers AI binding named AI.",
          "model_not_configured",
        ),
      ),
  };
}
