/**
 * One Durable Object per page origin (`https://shop.example`): the publishable keys, of any
 * workspace, that allow that origin. It answers the widget's CORS preflights, which carry no key,
 * so a site's preflights reach its own origin's object and no object is shared by every tenant.
 * Concerns: the origin's key references, and a one-time copy of the retired global list.
 */
import { DurableObject } from "cloudflare:workers";
import type { WorkspaceObject } from "../workspace/workspace-object";

/** The WorkspaceObject instance that held every origin before this object; read once per origin. */
export const LEGACY_CORS_INSTANCE = "__cors__";

/** The Durable Object of one origin. */
export class OriginRegistry extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** Set once the retired global list's rows for this origin are copied in. */
  private seeded: boolean;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS key_refs (key_ref TEXT PRIMARY KEY);
      CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);`);
    this.seeded = this.sql.exec("SELECT 1 FROM meta WHERE name = 'seeded'").toArray().length > 0;
  }

  /** Whether any publishable key allows this origin. */
  async allows(origin: string): Promise<boolean> {
    await this.seed(origin);
    return this.sql.exec("SELECT 1 FROM key_refs LIMIT 1").toArray().length > 0;
  }

  /** Records that key `<workspace>/<key id>` allows this origin. */
  async add(origin: string, keyRef: string): Promise<void> {
    await this.seed(origin);
    this.sql.exec("INSERT OR IGNORE INTO key_refs (key_ref) VALUES (?)", keyRef);
  }

  /** Forgets that key `<workspace>/<key id>` allows this origin. */
  async remove(origin: string, keyRef: string): Promise<void> {
    await this.seed(origin);
    this.sql.exec("DELETE FROM key_refs WHERE key_ref = ?", keyRef);
  }

  /**
   * Copies this origin's rows from the retired global list the first time the origin is used,
   * so keys made before the registry was split keep passing preflights. Runs once per origin.
   */
  private async seed(origin: string): Promise<void> {
    if (this.seeded) return;
    const ns = this.env.WORKSPACES as DurableObjectNamespace<WorkspaceObject>;
    const legacy = ns.get(ns.idFromName(LEGACY_CORS_INSTANCE));
    const refs = await legacy.legacyOriginRefs(origin);
    if (this.seeded) return;
    for (const ref of refs) this.sql.exec("INSERT OR IGNORE INTO key_refs (key_ref) VALUES (?)", ref);
    this.sql.exec("INSERT OR REPLACE INTO meta (name, value) VALUES ('seeded', '1')");
    this.seeded = true;
  }
}

/** The registry object of one origin. */
export function originRegistry(env: Env, origin: string): DurableObjectStub<OriginRegistry> {
  const ns = env.ORIGINS as DurableObjectNamespace<OriginRegistry>;
  return ns.get(ns.idFromName(origin));
}
