/**
 * One model turn of a run: calls the model (moving on to the run's next fallback model when it
 * fails transiently before any output) and turns its stream into AG-UI events (text message and
 * tool-call events), then checkpoints the assistant message.
 */

import { completeWithFallback, type ModelSwitch } from "../model/fallback";
import type { ChatMessage, ModelDelta, ModelRequest, ModelTurn } from "../model/model-types";
import type { Redaction } from "../secrets/secret-redactor";
import { ev } from "./event-builders";
import { answerCutCalls } from "./cut-output";
import type { StepDeps } from "./loop-deps";
import { chainFrom } from "./run-model";

/** Tracks which text message and tool calls are open, so they are always closed. */
export class OpenStreams {
  messageId: string | null = null;
  readonly toolCalls = new Map<number, string>();
  /** Whether any text or tool call of the turn was streamed (a fallback is then no longer safe). */
  emitted = false;
  /** Text held back so a secret split across deltas is redacted whole. */
  private held = "";

  constructor(
    private readonly emit: (e: Parameters<StepDeps["emit"]>[1]) => void,
    private readonly newId: () => string,
    private readonly redaction?: Redaction,
  ) {}

  /** Emits an event for one model delta, opening/closing messages as needed. */
  onDelta(d: ModelDelta, parentId: () => string): void {
    switch (d.kind) {
      case "text": {
        if (!d.delta) return;
        this.emitted = true;
        if (!this.messageId) {
          this.messageId = this.newId();
          this.emit(ev.textStart(this.messageId, "assistant"));
        }
        const hold = this.redaction ? this.redaction.longest() - 1 : 0;
        if (!this.redaction || hold < 0) {
          this.emit(ev.textContent(this.messageId, d.delta));
          return;
        }
        // Text is let out only up to a point no secret's form spans; the rest waits for more text.
        const raw = this.held + d.delta;
        const cut = raw.length - hold > 0 ? this.redaction.safeCut(raw, raw.length - hold) : 0;
        if (cut > 0) this.emit(ev.textContent(this.messageId, this.redaction.text(raw.slice(0, cut))));
        this.held = raw.slice(cut);
        return;
      }
      case "tool_call_start":
        this.emitted = true;
        this.closeText();
        this.toolCalls.set(d.index, d.id);
        this.emit(ev.toolStart(d.id, d.name, parentId()));
        return;
      case "tool_call_args": {
        const id = this.toolCalls.get(d.index);
        if (id && d.delta) this.emit(ev.toolArgs(id, d.delta));
        return;
      }
      case "restart":
        this.closeAll();
        this.emit(ev.custom("notice", { kind: "model_retry", attempt: d.attempt, reason: d.reason }));
        return;
    }
  }

  closeText(): void {
    if (this.messageId && this.held) {
      this.emit(ev.textContent(this.messageId, this.redaction?.text(this.held) ?? this.held));
    }
    this.held = "";
    if (this.messageId) this.emit(ev.textEnd(this.messageId));
    this.messageId = null;
  }

  closeAll(): void {
    this.closeText();
    for (const id of this.toolCalls.values()) this.emit(ev.toolEnd(id));
    this.toolCalls.clear();
  }
}

/** Runs one model turn for a run and stores the assistant message. */
export async function modelStep(
  deps: StepDeps,
  runId: string,
  step: number,
  context: ChatMessage[],
): Promise<ModelTurn> {
  const emit = (e: Parameters<StepDeps["emit"]>[1]) => deps.emit(runId, e);
  const stepName = `step_${step}`;
  let assistantId = `msg_${crypto.randomUUID()}`;
  await deps.redaction?.ready();
  const open = new OpenStreams(
    emit,
    () => {
      assistantId = `msg_${crypto.randomUUID()}`;
      return assistantId;
    },
    deps.redaction,
  );
  emit(ev.stepStarted(stepName));
  try {
    const request = { messages: context, tools: deps.tools.specs() };
    const turn = await completeWithFallback({
      models: chainFrom(deps, runId),
      call: (model) =>
        callModel(deps, runId, { ...request, model }, (d) =>
          open.onDelta(d, () => open.messageId ?? assistantId),
        ),
      canSwitch: () => !open.emitted,
      onSwitch: (change) => switchModel(deps, runId, change),
    });
    open.closeAll();
    deps.messages.append(runId, {
      role: "assistant",
      content: (deps.redaction && turn.text ? deps.redaction.text(turn.text) : turn.text) || null,
      ...(turn.toolCalls.length ? { tool_calls: turn.toolCalls } : {}),
    });
    deps.ledger.addStep(runId, turn.usage);
    answerCutCalls(deps, runId, turn);
    return turn;
  } finally {
    open.closeAll();
    emit(ev.stepFinished(stepName));
  }
}

/** One model's attempt at the turn (its retries included), traced as a `chat <model>` span. */
async function callModel(
  deps: StepDeps,
  runId: string,
  request: Pick<ModelRequest, "model" | "messages" | "tools">,
  onDelta: (d: ModelDelta) => void,
): Promise<ModelTurn> {
  const endSpan = deps.tracer?.chat(runId, request.model, request.messages);
  try {
    const turn = await deps.model.complete({ ...request, signal: deps.signal }, onDelta);
    endSpan?.(turn);
    return turn;
  } catch (err) {
    endSpan?.(null, err);
    throw err;
  }
}

/** The run moves on to the next model for this turn and the rest of the run, and says so. */
function switchModel(deps: StepDeps, runId: string, change: ModelSwitch): void {
  deps.runModels?.use(runId, change.to);
  deps.emit(runId, ev.custom("model_fallback", change));
}
