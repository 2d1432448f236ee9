/**
 * One call at a time in a conversation's browser (./conversation-browser.ts): parallel tool calls
 * would fight over focus. A call may leave work for after its answer (the state save); it runs
 * before the next call begins.
 */

/** The queue of a conversation's browser calls. */
export class CallQueue {
  private queue: Promise<unknown> = Promise.resolve();
  /** Work of the current exclusive call left for after its answer (the state save); the next call waits for it. */
  private afterAnswer: (() => Promise<void>) | null = null;

  /** `flush` runs when each call ends (the recording's flush), before its answer. */
  constructor(private readonly flush: () => Promise<void> | undefined) {}

  /** Runs `work` after every call before it, and the work each left for after its answer. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const recorded = async () => {
      try {
        return await work();
      } finally {
        await this.flush();
      }
    };
    const next = this.queue.then(recorded, recorded);
    // The call's answer goes out first; what it left for afterwards runs before the next call.
    const afterwards = () => this.runAfterAnswer();
    this.queue = next.then(afterwards, afterwards);
    return next;
  }

  /** Resolves once every call so far, and the work each left for after its answer, is done. */
  drained(): Promise<void> {
    return this.queue.then(() => {});
  }

  /** Leaves work of the current call for after its answer (replacing any left before). */
  leaveForAfterAnswer(work: () => Promise<void>): void {
    this.afterAnswer = work;
  }

  /** Runs the work left for after the answer now (errors ignored), once. */
  async runAfterAnswer(): Promise<void> {
    const work = this.afterAnswer;
    this.afterAnswer = null;
    await work?.().catch(() => {});
  }
}
