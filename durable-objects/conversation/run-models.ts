/** The fallback model each of a conversation's runs moved on to, found again in its events after an eviction. */
import type { CirrusEvent, ModelFallback } from "../../schemas/events";
import type { RuntimeConfig } from "../engine/config/runtime-config";
import { modelOf } from "../engine/loop/run-model";
import { RunModels } from "../engine/model/fallback";
import type { ConversationInfo } from "./conversation-meta";
import type { WiringParts } from "./wiring-parts";

/** The conversation's fallback models: its own, else the deployment's `MODEL_FALLBACKS`. */
export const fallbackModelsOf = (
  info: Pick<ConversationInfo, "fallback_models">,
  config: Pick<RuntimeConfig, "fallbackModels">,
): string[] => info.fallback_models ?? config.fallbackModels;

/**
 * The conversation's {@link RunModels}: a run's last `model_fallback` event says which model it
 * uses, one a sub-agent of the run emitted (forwarded in a `sub_agent_event`) too, since a
 * sub-agent's turns move the run they belong to.
 */
export function conversationRunModels(p: Pick<WiringParts, "log" | "runs">): RunModels {
  return new RunModels((runId) => {
    const run = p.runs.get(runId);
    if (!run) return null;
    let model: string | null = null;
    for (const { event } of p.log.scan(run.start_seq, ["CUSTOM"], { runId })) {
      const inner = event.type === "CUSTOM" && event.name === "sub_agent_event";
      model = fallbackTo(inner ? (event.value as { event?: CirrusEvent }).event : event) ?? model;
    }
    return model;
  });
}

/** The model a `model_fallback` event moved on to; null for any other event. */
const fallbackTo = (event: CirrusEvent | undefined) =>
  event?.type === "CUSTOM" && event.name === "model_fallback" ? (event.value as ModelFallback).to : null;

/** The model a run uses now: the conversation's primary, or the fallback it moved on to. */
export function currentRunModel(p: Pick<WiringParts, "meta" | "config">, runModels: RunModels) {
  return (runId: string): string => {
    const info = p.meta.info()!;
    return modelOf(
      { settings: { model: info.model, fallbackModels: fallbackModelsOf(info, p.config) }, runModels },
      runId,
    );
  };
}
