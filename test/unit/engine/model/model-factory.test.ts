import { describe, expect, it } from "vitest";
import { runtimeConfig } from "../../../../durable-objects/engine/config/runtime-config";
import { createModelClient } from "../../../../durable-objects/engine/model/model-factory";
import { isTransientModelFailure } from "../../../../durable-objects/engine/model/fallback";
import type { ModelDelta } from "../../../../durable-objects/engine/model/model-types";

/** A Workers AI binding standing in for the model (the LLM is the only stand-in we use). */
function fakeAi(output: unknown) {
  const calls: { model: string; input: Record<string, unknown> }[] = [];
  return {
    calls,
    binding: {
      run: async (model: string, input: Record<string, unknown>) => {
        calls.push({ model, input });
        return output;
      },
    },
  };
}

const request = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: "hi" }], tools: [] };

describe("choosing the model client", () => {
  it("uses Workers AI when no OpenAI key is set, mapping its tool calls and usage", async () => {
    const ai = fakeAi({
      response: null,
      tool_calls: [{ name: "create_task", arguments: { subject: "x" } }],
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
    });
    const client = createModelClient({ AI: ai.binding }, runtimeConfig({}));
    const deltas: ModelDelta[] = [];
    const turn = await client.complete(request, (d) => deltas.push(d));
    expect(ai.calls[0].model).toBe("@cf/meta/llama-3.3-70b-instruct-fp8-fast");
    expect(turn.toolCalls[0].function).toEqual({ name: "create_task", arguments: '{"subject":"x"}' });
    expect(turn.usage).toEqual({ input_tokens: 7, output_tokens: 2, total_tokens: 9 });
    expect(deltas.map((d) => d.kind)).toEqual(["tool_call_start", "tool_call_args"]);
  });

  it("passes a conversation's @cf/ model through to Workers AI", async () => {
    const ai = fakeAi({ response: "hello" });
    const client = createModelClient({ AI: ai.binding }, runtimeConfig({}));
    const turn = await client.complete({ ...request, model: "@cf/qwen/qwen3-30b-a3b-fp8" }, () => {});
    expect(ai.calls[0].model).toBe("@cf/qwen/qwen3-30b-a3b-fp8");
    expect(turn.text).toBe("hello");
  });

  it("retries a transient Workers AI failure and labels it by its cause, not as a missing setup", async () => {
    // The binding's errors as workerd's ai-api throws them: "<internal code>: <description>".
    const cases = [
      { thrown: "3040: Capacity temporarily exceeded, please try again.", code: "model_rate_limited" },
      { thrown: "3007: Request timeout", code: "model_unavailable" },
      { thrown: "Network connection lost.", code: "model_unreachable" },
    ];
    const config = runtimeConfig({ MODEL_RETRY_ATTEMPTS: "3", MODEL_RETRY_BASE_DELAY_MS: "1" });
    for (const { thrown, code } of cases) {
      let calls = 0;
      const failing = {
        run: async () => {
          calls++;
          throw new Error(thrown);
        },
      };
      const err = await createModelClient({ AI: failing }, config)
        .complete(request, () => {})
        .catch((e: unknown) => e);
      expect(err, thrown).toMatchObject({ code, message: expect.stringContaining(thrown) });
      expect(isTransientModelFailure(err), thrown).toBe(true);
      expect(calls, thrown).toBe(3);
    }
    // An upstream 5xx without a known code: the status the binding recorded says what it was.
    const outage = {
      lastRequestHttpStatusCode: 502,
      run: async () => Promise.reject(new Error("Bad gateway")),
    };
    await expect(createModelClient({ AI: outage }, config).complete(request, () => {})).rejects.toMatchObject(
      {
        code: "model_unavailable",
        status: 502,
      },
    );
  });

  it("answers model_not_configured, once, for a Workers AI failure no retry mends", async () => {
    let calls = 0;
    const unknownModel = {
      run: async () => {
        calls++;
        throw new Error("5007: No such model @cf/nope or task");
      },
    };
    const client = createModelClient({ AI: unknownModel }, runtimeConfig({ MODEL_RETRY_ATTEMPTS: "3" }));
    const err = await client.complete(request, () => {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "model_not_configured" });
    expect(isTransientModelFailure(err)).toBe(false);
    expect(calls).toBe(1);
  });

  it("fails with a clear error when neither a key nor Workers AI is configured", async () => {
    const client = createModelClient({}, runtimeConfig({}));
    await expect(client.complete(request, () => {})).rejects.toMatchObject({ code: "model_not_configured" });
  });
});
