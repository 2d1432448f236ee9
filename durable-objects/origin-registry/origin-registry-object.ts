/**
 * One Durable Object per page origin (`https://shop.example`): the publishable keys, of any
 * workspace, that allow that origin. It answers the widget's CORS preflights, which carry no key,
 * so a site's preflights reach its own origin's object and no object is shared by every tenant.
 * Concerns: the origin's key references, and taking over the origin's rows of the retired global
 * list. An origin no key allows stores nothing, so preflights from made-up origins leave no state.
 */
import { originRegistryStub } from "../addresses/origin-registry";
import { workspaceStub } from "../addresses/workspace";
import { DurableObject } from "cloudflare:workers";
import { migrate, migrationSteps } from "../engine/store/migrations";

/** The WorkspaceObject instance that held every origin before this object; drained by the cron. */
export const LEGACY_CORS_INSTANCE = "__cors__";

/**
 * Every step of an origin's SQLite, oldest first (docs/architecture-storage.md). They run on the
 * first write and on each wake of an origin that stored something: `key_refs` marks the seed.
 */
export const ORIGIN_REGISTRY_MIGRATIONS = migrationSteps([
  {
    version: 1,
    name: "baseline",
    up: (sql) => sql.exec("CREATE TABLE IF NOT EXISTS key_refs (key_ref TEXT PRIMARY KEY)"),
  },
]);

/** The Durable Object of one origin. */
export class OriginRegistry extends DurableObject<Env> {
  /**
   * Set in an isolate once the retired list answered that it is drained: from then on no origin
   * asks it again (it is never written, so it cannot fill up again). Tests reset it.
   */
  static legacyDrained = false;
  private readonly sql: SqlStorage;
  /** Whether the retired list's rows for this origin are known to be copied (or absent). */
  private seeded = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    if (this.stored()) migrate(ctx.storage, ORIGIN_REGISTRY_MIGRATIONS);
  }

  /** Whether any publishable key allows this origin. */
  async allows(origin: string): Promise<boolean> {
    await this.seed(origin);
    return this.stored() && this.sql.exec("SELECT 1 FROM key_refs LIMIT 1").toArray().length > 0;
  }

  /** Records that key `<workspace>/<key id>` allows this origin. */
  async add(origin: string, keyRef: string): Promise<void> {
    await this.seed(origin);
    this.store([keyRef]);
  }

  /** Forgets that key `<workspace>/<key id>` allows this origin. */
  async remove(origin: string, keyRef: string): Promise<void> {
    await this.seed(origin);
    if (this.stored()) this.sql.exec("DELETE FROM key_refs WHERE key_ref = ?", keyRef);
  }

  /** The cron's drain: takes this origin's rows of the retired list unless it already has. */
  takeLegacy(refs: string[]): void {
    if (this.stored()) return;
    this.store(refs);
    this.seeded = true;
  }

  /**
   * Copies this origin's rows from the retired global list the first time the origin is used,
   * so keys made before the registry was split keep passing preflights until the cron drains it.
   */
  private async seed(origin: string): Promise<void> {
    if (this.seeded) return;
    if (this.stored() || OriginRegistry.legacyDrained) {
      this.seeded = true;
      return;
    }
    const { refs, drained } = await workspaceStub(this.env, LEGACY_CORS_INSTANCE).legacyOriginRefs(origin);
    if (drained) OriginRegistry.legacyDrained = true;
    if (this.seeded) return;
    if (refs.length > 0) this.store(refs);
    this.seeded = true;
  }

  /** Whether this origin has stored anything; tables are made only after the seed, so it marks one. */
  private stored(): boolean {
    return (
      this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'key_refs'").toArray()
        .length > 0
    );
  }

  /** Adds key references, creating the tables on the first write. */
  private store(refs: string[]): void {
    migrate(this.ctx.storage, ORIGIN_REGISTRY_MIGRATIONS);
    for (const ref of refs) this.sql.exec("INSERT OR IGNORE INTO key_refs (key_ref) VALUES (?)", ref);
  }
}

/** The registry object of one origin. */
export function originRegistry(env: Env, origin: string): DurableObjectStub<OriginRegistry> {
  return originRegistryStub(env, origin) as DurableObjectStub<OriginRegistry>;
}
