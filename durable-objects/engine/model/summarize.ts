/** Summaries for web_fetch's `prompt`, written by the conversation's own model. */
import type { ModelClient, Usage } from "./model-types";

/** The summariser's instructions. */
export const SUMMARY_SYSTEM_PROMPT =
  "You summarise a fetched web page for an AI agent. Follow the user's prompt, use only the page's content, keep facts, names, numbers and links exact, and say so when the page does not contain what is asked.";

/** A function that summarises text following a prompt. */
export type Summarize = (text: string, prompt: string, signal: AbortSignal) => Promise<string>;

/** Builds a summariser on a model client and model name (the ones the agent loop uses, read per call). */
export function createSummarizer(
  model: ModelClient,
  modelName: string | (() => string),
  onUsage: (usage: Usage) => void = () => {},
): Summarize {
  return async (text, prompt, signal) => {
    const turn = await model.complete(
      {
        model: typeof modelName === "string" ? modelName : modelName(),
        messages: [
          { role: "system", content: SUMMARY_SYSTEM_PROMPT },
          { role: "user", content: `${prompt}\n\n<page>\n${text}\n</page>` },
        ],
        tools: [],
        signal,
      },
      () => {},
    );
    onUsage(turn.usage);
    return turn.text.trim();
  };
}
