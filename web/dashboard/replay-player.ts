/**
 * The recording player (built into dashboard/replay.js, loaded only when a recording is played):
 * rrweb's Replayer in a sandboxed frame with play/pause, a seek bar, speed, and the tool calls
 * that were running marked on the timeline. Replayed pages run no scripts (rrweb's frame has no
 * allow-scripts) and, under the dashboard's CSP, load nothing from other origins.
 */
import { type eventWithTime, Replayer } from "rrweb";

/** A tool call to mark on the timeline: its name and when it started and ended (epoch ms). */
export interface TimelineMark {
  name: string;
  start: number;
  end: number;
}

const SPEEDS = [1, 2, 4, 8];

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

/** The replay and whether it is playing, shared by the controls. */
interface Player {
  replayer: Replayer;
  meta: ReturnType<Replayer["getMetaData"]>;
  playing: boolean;
}

/** What shows the current position: the seek bar, the clock and the tool calls running then. */
interface Readouts {
  seek: HTMLInputElement;
  clock: HTMLElement;
  current: HTMLElement;
}

/** Mounts a player for `events` into `root`; returns a function that removes it. */
export function mountReplay(root: HTMLElement, events: unknown[], marks: TimelineMark[]): () => void {
  const stage = el("div", { class: "replay-stage" });
  // rrweb builds its sandboxed frame inside `stage`, which must be in the document by then.
  root.append(stage);
  const replayer = new Replayer(events as eventWithTime[], {
    root: stage,
    skipInactive: true,
    mouseTail: false,
  });
  const player: Player = { replayer, meta: replayer.getMetaData(), playing: false };
  const play = el("button", { type: "button", "data-replay": "play" }, "Play");
  const readouts = positionReadouts(player.meta.totalTime);
  const speed = speedSelect();
  const show = () => showPosition(player, marks, readouts);
  const seekTo = (t: number) => seekPlayer(player, t, show);
  const marker = timelineMarks(marks, player.meta, seekTo);
  const timer = setInterval(show, 200);
  wireControls(player, play, readouts.seek, speed, seekTo);
  const controls = el("div", { class: "row replay-controls" });
  controls.append(play, readouts.seek, speed, readouts.clock);
  root.append(marker, controls, readouts.current);
  replayer.pause(0);
  show();
  return () => {
    clearInterval(timer);
    replayer.destroy();
    root.replaceChildren();
  };
}

/** The seek bar over `totalTime` ms, the clock and the running-tool line. */
function positionReadouts(totalTime: number): Readouts {
  const seek = el("input", {
    type: "range",
    min: "0",
    max: String(totalTime),
    value: "0",
    "aria-label": "Seek",
  });
  const clock = el("span", { class: "muted replay-clock" });
  const current = el("div", { class: "muted replay-current", role: "status" });
  return { seek, clock, current };
}

/** The playback speed choice. */
function speedSelect(): HTMLSelectElement {
  const speed = el("select", { "aria-label": "Speed" });
  for (const s of SPEEDS) speed.append(el("option", { value: String(s) }, `${s}×`));
  return speed;
}

/** Shows the replay's current position: seek bar, clock and the tool calls running at that moment. */
function showPosition(player: Player, marks: TimelineMark[], readouts: Readouts): void {
  const { replayer, meta } = player;
  const t = replayer.getCurrentTime();
  readouts.seek.value = String(Math.round(t));
  readouts.clock.textContent = `${(t / 1000).toFixed(1)} s / ${(meta.totalTime / 1000).toFixed(1)} s`;
  const at = meta.startTime + t;
  const running = marks.filter((m) => m.start <= at && at <= m.end).map((m) => m.name);
  readouts.current.textContent = running.length ? `Tool: ${running.join(", ")}` : "";
}

/** Moves the replay to `t` ms from its start (playing on if it was playing), then `show`s it. */
function seekPlayer(player: Player, t: number, show: () => void): void {
  const { replayer, meta } = player;
  // The end itself: rrweb applies events before the offset, so go just past the last one.
  const clamped = t >= meta.totalTime ? meta.totalTime + 1 : Math.max(0, t);
  if (player.playing) replayer.play(clamped);
  else replayer.pause(clamped);
  show();
}

/** The timeline: a button per tool call in the recording's span, placed where it ran. */
function timelineMarks(
  marks: TimelineMark[],
  meta: Player["meta"],
  seekTo: (t: number) => void,
): HTMLElement {
  const marker = el("div", { class: "replay-marks", role: "group", "aria-label": "Tool calls" });
  for (const m of marks) {
    const from = m.start - meta.startTime;
    const left = (from / Math.max(1, meta.totalTime)) * 100;
    const width = (Math.max(m.end - m.start, 1) / Math.max(1, meta.totalTime)) * 100;
    if (left > 100 || left + width < 0) continue;
    // A button per tool call: it says when the call ran, and jumps there.
    const label = `${m.name} at ${(Math.max(0, from) / 1000).toFixed(1)} s`;
    const tick = el("button", { type: "button", class: "replay-mark", title: label, "aria-label": label });
    tick.style.left = `${Math.max(0, left)}%`;
    tick.style.width = `${Math.max(0.5, width)}%`;
    tick.addEventListener("click", () => seekTo(from + 1));
    marker.append(tick);
  }
  return marker;
}

/** Play/pause, seeking, speed, and back to Play when the replay finishes. */
function wireControls(
  player: Player,
  play: HTMLButtonElement,
  seek: HTMLInputElement,
  speed: HTMLSelectElement,
  seekTo: (t: number) => void,
): void {
  const { replayer, meta } = player;
  play.addEventListener("click", () => {
    if (player.playing) replayer.pause();
    else replayer.play(replayer.getCurrentTime() >= meta.totalTime ? 0 : replayer.getCurrentTime());
    player.playing = !player.playing;
    play.textContent = player.playing ? "Pause" : "Play";
  });
  seek.addEventListener("input", () => seekTo(Number(seek.value)));
  speed.addEventListener("change", () => replayer.setConfig({ speed: Number(speed.value) }));
  replayer.on("finish", () => {
    player.playing = false;
    play.textContent = "Play";
  });
}

(globalThis as unknown as { CirrusReplay: unknown }).CirrusReplay = { mountReplay };
