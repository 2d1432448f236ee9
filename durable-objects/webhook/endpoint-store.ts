/** The workspace's webhook endpoints in SQLite; signing secrets sealed at rest (AES-GCM). */
import type { Webhook, WebhookEventType } from "../../schemas/webhooks";
import { openSecret, sealSecret } from "../engine/secret-box";

/** Endpoints one workspace may register. */
export const MAX_ENDPOINTS = 20;

interface EndpointRow extends Record<string, SqlStorageValue> {
  id: string;
  url: string;
  events: string;
  sealed: string;
  created_at: number;
}

const view = (r: EndpointRow): Webhook => ({
  id: r.id,
  object: "webhook",
  url: r.url,
  events: JSON.parse(r.events) as WebhookEventType[],
  created_at: r.created_at,
});

/** Creates the webhook endpoints table: the object's schema steps call it. */
export function createEndpointTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS endpoints (id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL,
    sealed TEXT NOT NULL, created_at INTEGER NOT NULL)`);
}

/** Reads and writes the endpoints. */
export class EndpointStore {
  constructor(
    private readonly sql: SqlStorage,
    private readonly key: () => Promise<CryptoKey>,
  ) {}

  count(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM endpoints").one().n;
  }

  /** Stores an endpoint with its secret sealed. */
  async add(w: Webhook, secret: string): Promise<void> {
    const sealed = await sealSecret(await this.key(), `webhook/${w.id}`, secret);
    this.sql.exec(
      "INSERT INTO endpoints (id, url, events, sealed, created_at) VALUES (?, ?, ?, ?, ?)",
      w.id,
      w.url,
      JSON.stringify(w.events),
      sealed,
      w.created_at,
    );
  }

  list(): Webhook[] {
    return this.sql.exec<EndpointRow>("SELECT * FROM endpoints ORDER BY created_at, id").toArray().map(view);
  }

  get(id: string): Webhook | null {
    const row = this.sql.exec<EndpointRow>("SELECT * FROM endpoints WHERE id = ?", id).toArray()[0];
    return row ? view(row) : null;
  }

  /** Endpoints subscribed to an event type. */
  subscribed(type: WebhookEventType): Webhook[] {
    return this.list().filter((w) => w.events.includes(type));
  }

  /** The endpoint's signing secret, for signing only (never returned after creation). */
  async secret(id: string): Promise<string | null> {
    const row = this.sql.exec<EndpointRow>("SELECT * FROM endpoints WHERE id = ?", id).toArray()[0];
    return row ? openSecret(await this.key(), `webhook/${id}`, row.sealed) : null;
  }

  remove(id: string): boolean {
    return this.sql.exec("DELETE FROM endpoints WHERE id = ?", id).rowsWritten > 0;
  }
}
