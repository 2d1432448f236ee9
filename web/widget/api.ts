/** The widget's calls to Cirrus with a publishable key and the visitor token. */
import { encodeFilePath } from "../ui/file-path";
import type { WidgetConfig } from "./config";

/** A visitor session, kept in localStorage so the conversation survives reloads. */
export interface Session {
  conversation_id: string;
  visitor_token: string;
  last_seq: number;
  open?: boolean;
}

/** A refused call: the status and, for 429, how long to wait. */
export class WidgetApiError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: number | null,
  ) {
    super(`Cirrus answered ${status}`);
    this.name = new.target.name;
  }
}

/** Talks to Cirrus for one widget. */
export class WidgetApi {
  session: Session | null;
  private readonly storageKey: string;

  constructor(private readonly cfg: WidgetConfig) {
    this.storageKey = `cirrus-widget:${cfg.key.slice(-16)}`;
    this.session = this.load();
  }

  /** The headers of every call. */
  headers(): Record<string, string> {
    const h: Record<string, string> = { authorization: `Bearer ${this.cfg.key}` };
    if (this.session) h["x-visitor-token"] = this.session.visitor_token;
    return h;
  }

  /** `…/v1/conversations/{id}` of the session. */
  conversationUrl(): string {
    return `${this.cfg.api}/v1/conversations/${encodeURIComponent(this.session?.conversation_id ?? "")}`;
  }

  /** Opens a visitor session unless one is stored. */
  async ensureSession(): Promise<Session> {
    if (this.session) return this.session;
    const res = await this.call(`${this.cfg.api}/v1/widget/session`, { method: "POST" }, false);
    const body = (await res.json()) as { conversation_id: string; visitor_token: string };
    this.session = { ...body, last_seq: 0, open: true };
    this.save();
    return this.session;
  }

  /** Sends a message; the answer arrives on the event stream. */
  async send(content: string): Promise<void> {
    const res = await this.call(`${this.conversationUrl()}/messages`, {
      method: "POST",
      body: JSON.stringify({ content, stream: true, idempotency_key: crypto.randomUUID() }),
    });
    await res.body?.cancel().catch(() => {});
  }

  /** Answers the pending question. */
  async answer(questionId: string, answer: string | string[]): Promise<void> {
    await this.call(`${this.conversationUrl()}/answer`, {
      method: "POST",
      body: JSON.stringify({ question_id: questionId, answer }),
    });
  }

  /** Stops the current run. */
  async cancel(): Promise<void> {
    await this.call(`${this.conversationUrl()}/cancel`, { method: "POST" });
  }

  /** Downloads a file the agent wrote, as a Blob. */
  async file(path: string): Promise<Blob> {
    return (
      await this.call(`${this.conversationUrl()}/files/${encodeFilePath(path)}`, { method: "GET" })
    ).blob();
  }

  /** Remembers the last event seen. */
  remember(patch: Partial<Session>): void {
    if (!this.session) return;
    Object.assign(this.session, patch);
    this.save();
  }

  /** Forgets the session (revoked key, deleted conversation). */
  forget(): void {
    this.session = null;
    try {
      localStorage.removeItem(this.storageKey);
    } catch {
      // storage blocked
    }
  }

  private async call(url: string, init: RequestInit, withVisitor = true): Promise<Response> {
    const headers: Record<string, string> = withVisitor
      ? this.headers()
      : { authorization: `Bearer ${this.cfg.key}` };
    if (init.body) headers["content-type"] = "application/json";
    const res = await fetch(url, { ...init, headers, cache: "no-store" });
    if (!res.ok) {
      const retry = Number(res.headers.get("retry-after"));
      throw new WidgetApiError(res.status, Number.isFinite(retry) && retry > 0 ? retry : null);
    }
    return res;
  }

  private load(): Session | null {
    try {
      const raw = localStorage.getItem(this.storageKey);
      const s = raw ? (JSON.parse(raw) as Session) : null;
      return s && typeof s.conversation_id === "string" && typeof s.visitor_token === "string" ? s : null;
    } catch {
      return null;
    }
  }

  private save(): void {
    try {
      if (this.session) localStorage.setItem(this.storageKey, JSON.stringify(this.session));
    } catch {
      // storage blocked: the conversation will not survive a reload, nothing else breaks
    }
  }
}
