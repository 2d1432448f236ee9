/**
 * How a conversation reviews its runs' results: the settings of one run (its message's options
 * over the conversation's), the grader's model and ledger, and the hook the loop calls when a
 * run succeeds.
 */
import type { CirrusEvent } from "../../schemas/events";
import type { MessageReviewOptions } from "../../schemas/research";
import type { LoopDeps, RunLedger } from "../engine/loop/loop-deps";
import type { ModelClient } from "../engine/model/model-types";
import type { ReadLog } from "../engine/research/read-log";
import type { ReviewStore } from "../engine/research/review-store";
import {
  DEFAULT_MAX_REVISIONS,
  DEFAULT_VERIFY_CITATIONS,
  type ReviewSettings,
  reviewRun,
} from "../engine/research/run-review";
import type { RunStore } from "../engine/store/run-store";
import type { ConversationInfo } from "./conversation-meta";

/**
 * One run's review settings: its message's options, else the conversation's, else the defaults;
 * the grader defaults to the model the run uses (its fallback, once it moved on to one).
 */
export function reviewSettings(
  info: ConversationInfo,
  options: MessageReviewOptions,
  runModel: string = info.model,
): ReviewSettings {
  return {
    verify: options.verify_citations ?? info.verify_citations ?? DEFAULT_VERIFY_CITATIONS,
    maxRevisions: options.max_revisions ?? info.max_revisions ?? DEFAULT_MAX_REVISIONS,
    criteria: options.success_criteria ?? [],
    graderModel: options.grader_model ?? info.grader_model ?? runModel,
  };
}

/** What the reviewer needs from the conversation. */
export interface ReviewerParts {
  info: ConversationInfo;
  runs: RunStore;
  reads: ReadLog;
  reviews: ReviewStore;
  model: ModelClient;
  /** The model a run uses now (its primary, or the fallback it moved on to). */
  runModel(runId: string): string;
  /** The run ledger pricing calls at this model's price. */
  ledger(model: string): RunLedger;
  emit(runId: string, event: CirrusEvent): void;
  signal: AbortSignal;
}

/** The loop's review hook for this conversation; a review that throws accepts the run unreviewed. */
export function reviewer(p: ReviewerParts): NonNullable<LoopDeps["review"]> {
  return async (runId, output) => {
    const settings = reviewSettings(p.info, p.reviews.options(runId), p.runModel(runId));
    try {
      return await reviewRun(
        {
          settings,
          store: p.reviews,
          reads: p.reads,
          task: p.runs.get(runId)?.content ?? "",
          grader: p.model,
          addUsage: (usage) => p.ledger(settings.graderModel).addUsage(runId, usage),
          emit: (event) => p.emit(runId, event),
          signal: p.signal,
        },
        runId,
        output,
      );
    } catch (err) {
      console.warn("reviewing a run's result failed", (err as Error).message);
      return { revise: null, review: p.reviews.review(runId) };
    }
  };
}
