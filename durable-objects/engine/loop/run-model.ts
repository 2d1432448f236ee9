/** Which model a run's turns go to: its primary, or the fallback that answered when the primary failed. */
import { fallbackChain } from "../model/fallback";
import type { LoopSettings, StepDeps } from "./loop-deps";

/** What picks a run's model: the conversation's primary and fallbacks, and where each run is. */
type RunModelDeps = Pick<StepDeps, "runModels"> & {
  settings: Pick<LoopSettings, "model" | "fallbackModels">;
};

/** The model the run uses now (the one its usage is attributed to). */
export function modelOf(deps: RunModelDeps, runId: string): string {
  const current = deps.runModels?.of(runId) ?? null;
  return current && runChain(deps).includes(current) ? current : deps.settings.model;
}

/** The models a turn of the run may try, from the one it uses now on. */
export function chainFrom(deps: RunModelDeps, runId: string): string[] {
  const chain = runChain(deps);
  return chain.slice(Math.max(0, chain.indexOf(modelOf(deps, runId))));
}

function runChain(deps: RunModelDeps): string[] {
  return fallbackChain(deps.settings.model, deps.settings.fallbackModels);
}
