/**
 * Fallback models: when a model turn has used up its retries on one model with a failure another
 * model may not share (429, 5xx, a timeout, a lost connection), the same request goes to the next
 * model of the chain. Failures any model would repeat (a bad request, a refused key, a content
 * filter) are never passed on. Which model a run is using is kept per run ({@link RunModels}).
 */
import { ModelError } from "./openai-client";
import { isRetryableStatus } from "./retry";

/** Codes of model failures that are the provider's, not the request's (openai-client.ts). */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  "model_rate_limited",
  "model_unavailable",
  "model_unreachable",
]);

/** Whether a failed model call may succeed on another model: rate limits, outages, timeouts. */
export function isTransientModelFailure(err: unknown): err is ModelError {
  if (!(err instanceof ModelError)) return false;
  if (TRANSIENT_CODES.has(err.code)) return true;
  return err.status !== undefined && isRetryableStatus(err.status);
}

/** The models a run may use, in order: the primary, then each fallback once. */
export function fallbackChain(primary: string, fallbacks: readonly string[] = []): string[] {
  return [...new Set([primary, ...fallbacks])];
}

/** A run moving on to the next model: what the `model_fallback` event carries. */
export interface ModelSwitch {
  from: string;
  to: string;
  /** The failure's code (`model_unavailable`, `model_rate_limited`, `model_unreachable`, …). */
  reason: string;
  message: string;
}

/** How one turn is tried along the chain. */
export interface FallbackTurn<T> {
  /** The chain from the model the run uses now on. */
  models: readonly string[];
  /** One model call (with its own retries). */
  call(model: string): Promise<T>;
  /** Whether the turn may still move on: false once any of its output was emitted. */
  canSwitch(): boolean;
  /** Told before the next model is asked. */
  onSwitch(change: ModelSwitch): void;
}

/** Runs a turn on the first model of the chain that answers; the last error names every model tried. */
export async function completeWithFallback<T>(turn: FallbackTurn<T>): Promise<T> {
  const tried: string[] = [];
  for (const [i, model] of turn.models.entries()) {
    tried.push(model);
    try {
      return await turn.call(model);
    } catch (err) {
      const next = turn.models[i + 1];
      if (next === undefined || !isTransientModelFailure(err) || !turn.canSwitch())
        throw tried.length > 1 ? namingModels(err, tried) : err;
      turn.onSwitch({ from: model, to: next, reason: err.code, message: err.message });
    }
  }
  throw new ModelError("No model to call.", "model_not_configured");
}

/** The last failure, its message naming each model the turn tried. */
function namingModels(err: unknown, tried: string[]): unknown {
  if (!(err instanceof ModelError)) return err;
  return new ModelError(`${err.message} (models tried: ${tried.join(", ")})`, err.code, err.status, {
    cause: err,
  });
}

/**
 * The model each run is using when it is not its primary: set on a fallback, so the model that
 * answered serves the rest of the run; a new run starts at its primary. An entry lost with the
 * object's memory is found again by `restore` (the run's last `model_fallback` event).
 */
export class RunModels {
  private readonly current = new Map<string, string | null>();

  constructor(private readonly restore: (runId: string) => string | null = () => null) {}

  /** The model a run moved on to, or null while it uses its primary. */
  of(runId: string): string | null {
    if (!this.current.has(runId)) this.current.set(runId, this.restore(runId));
    return this.current.get(runId) ?? null;
  }

  /** The run uses `model` from now on. */
  use(runId: string, model: string): void {
    this.current.set(runId, model);
  }

  /** Forgets an ended run. */
  forget(runId: string): void {
    this.current.delete(runId);
  }
}
