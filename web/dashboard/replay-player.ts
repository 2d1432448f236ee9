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
  const meta = replayer.getMetaData();
  const play = el("button", { type: "button", "data-replay": "play" }, "Play");
  const seek = el("input", {
    type: "range",
    min: "0",
    max: String(meta.totalTime),
    value: "0",
    "aria-label": "Seek",
  });
  const speed = el("select", { "aria-label": "Speed" });
  for (const s of SPEEDS) speed.append(el("option", { value: String(s) }, `${s}×`));
  const clock = el("span", { class: "muted replay-clock" });
  const marker = el("div", { class: "replay-marks", role: "group", "aria-label": "Tool calls" });
  const current = el("div", { class: "muted replay-current", role: "status" });
  let playing = false;
  const show = () => {
    const t = replayer.getCurrentTime();
    seek.value = String(Math.round(t));
    clock.textContent = `${(t / 1000).toFixed(1)} s / ${(meta.totalTime / 1000).toFixed(1)} s`;
    const at = meta.startTime + t;
    const running = marks.filter((m) => m.start <= at && at <= m.end).map((m) => m.name);
    current.textContent = running.length ? `Tool: ${running.join(", ")}` : "";
  };
  /** Moves the replay to `t` ms from its start (playing on if it was playing). */
  const seekTo = (t: number) => {
    // The end itself: rrweb applies events before the offset, so go just past the last one.
    const clamped = t >= meta.totalTime ? meta.totalTime + 1 : Math.max(0, t);
    if (playing) replayer.play(clamped);
    else replayer.pause(clamped);
    show();
  };
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
  const timer = setInterval(show, 200);
  play.addEventListener("click", () => {
    if (playing) replayer.pause();
    else replayer.play(replayer.getCurrentTime() >= meta.totalTime ? 0 : replayer.getCurrentTime());
    playing = !playing;
    play.textContent = playing ? "Pause" : "Play";
  });
  seek.addEventListener("input", () => seekTo(Number(seek.value)));
  speed.addEventListener("change", () => replayer.setConfig({ speed: Number(speed.value) }));
  replayer.on("finish", () => {
    playing = false;
    play.textContent = "Play";
  });
  const controls = el("div", { class: "row replay-controls" });
  controls.append(play, seek, speed, clock);
  root.append(marker, controls, current);
  replayer.pause(0);
  show();
  return () => {
    clearInterval(timer);
    replayer.destroy();
    root.replaceChildren();
  };
}

(globalThis as unknown as { CirrusReplay: unknown }).CirrusReplay = { mountReplay };
