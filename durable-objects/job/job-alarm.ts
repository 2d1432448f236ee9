/** The one alarm of a job's object, set to the next moment something is due. */

/**
 * Sets the alarm at `wake` (the job's clock; null: nothing due, the alarm is removed) and returns
 * when it rings; with `onlyIfLate`, an earlier alarm is kept (and nothing is removed).
 */
export async function armAlarm(
  storage: DurableObjectStorage,
  wake: number | null,
  clock: () => number,
  onlyIfLate: boolean,
): Promise<number | null> {
  const current = await storage.getAlarm();
  if (wake === null) {
    if (!onlyIfLate) await storage.deleteAlarm();
    return onlyIfLate ? current : null;
  }
  // Alarms use the wall clock; the job's clock may be moved by tests, so set the same distance.
  const at = Date.now() + Math.max(0, wake - clock());
  if (onlyIfLate && current !== null && current <= at) return current;
  await storage.setAlarm(at);
  return at;
}
