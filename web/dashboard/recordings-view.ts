/**
 * The conversation's browser recordings in the dashboard: one row per recorded tab, and a
 * player (rrweb's Replayer, loaded from dashboard/replay.js only when one is played) with the
 * tool calls that were running marked on its timeline.
 */
import type { RecordingInfo } from "../../schemas/recordings";
import { clear, h } from "../ui/dom";
import { ApiFailure, api } from "./client";
import { failureText, notice } from "./ui";

/** A tool call's span, from the conversation's events. */
export interface ToolSpan {
  /** The tool call's id, while its result is awaited. */
  id?: string;
  name: string;
  start: number;
  end: number;
}

interface ReplayModule {
  mountReplay(root: HTMLElement, events: unknown[], marks: ToolSpan[]): () => void;
}

let loading: Promise<ReplayModule> | null = null;

/** Loads the player's script and style once. */
function loadPlayer(): Promise<ReplayModule> {
  loading ??= new Promise((resolve, reject) => {
    document.head.append(h("link", { rel: "stylesheet", href: "/dashboard/replay.css" }));
    const script = h("script", { src: "/dashboard/replay.js" });
    script.addEventListener("load", () =>
      resolve((globalThis as unknown as { CirrusReplay: ReplayModule }).CirrusReplay),
    );
    script.addEventListener("error", () => reject(new Error("The player could not be loaded.")));
    document.head.append(script);
  });
  return loading;
}

/** What went wrong playing a recording: the API's refusal, else the player's own error. */
function playFailure(err: unknown): string {
  if (err instanceof ApiFailure || !(err instanceof Error)) return failureText(err);
  return `The recording could not be played: ${err.message}`;
}

/** Every page of a recording's events. */
async function allEvents(base: string): Promise<unknown[]> {
  const events: unknown[] = [];
  let cursor: string | null = "0";
  while (cursor !== null) {
    const page: { events: unknown[]; next_cursor: string | null } = await api(`${base}?cursor=${cursor}`);
    events.push(...page.events);
    cursor = page.next_cursor;
  }
  return events;
}

/** The recordings card of one conversation. */
export class RecordingsView {
  readonly el = h("div", { class: "card recordings", hidden: true });
  private unmount: (() => void) | null = null;

  constructor(
    private readonly conversationId: string,
    private readonly spans: () => ToolSpan[],
  ) {}

  /** Lists the recordings (every page). */
  async refresh(): Promise<void> {
    const base = `/v1/conversations/${encodeURIComponent(this.conversationId)}/recordings`;
    const all: RecordingInfo[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: RecordingInfo[]; next_cursor: string | null } = await api(
        `${base}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      all.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    this.render(all);
  }

  stop(): void {
    this.unmount?.();
    this.unmount = null;
  }

  private render(recordings: RecordingInfo[]): void {
    clear(this.el);
    this.el.hidden = recordings.length === 0;
    const player = h("div", { class: "replay" });
    this.el.append(h("strong", {}, "Recordings"));
    for (const r of recordings) {
      const button = h("button", { type: "button", "data-recording": r.id }, "Play");
      button.addEventListener("click", () =>
        this.play(r, player).catch((err) => player.replaceChildren(notice(playFailure(err), true))),
      );
      const seconds = ((r.ended_at - r.started_at) / 1000).toFixed(0);
      this.el.append(
        h(
          "div",
          { class: "row" },
          button,
          ` Tab ${r.tab_id} · ${r.url} · ${new Date(r.started_at).toLocaleString()} · ${seconds} s · ${r.events} events · ${Math.ceil(r.size / 1024)} KiB${r.truncated ? " · cut at the size limit" : ""}`,
        ),
      );
    }
    this.el.append(player);
  }

  private async play(r: RecordingInfo, player: HTMLElement): Promise<void> {
    this.stop();
    player.replaceChildren(h("p", { class: "muted" }, "Loading the recording…"));
    const base = `/v1/conversations/${encodeURIComponent(this.conversationId)}/recordings/${encodeURIComponent(r.id)}`;
    const [module, events] = await Promise.all([loadPlayer(), allEvents(base)]);
    player.replaceChildren();
    this.unmount = module.mountReplay(player, events, this.spans());
  }
}
