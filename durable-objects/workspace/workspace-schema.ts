/**
 * The workspace object's schema steps, in order (see engine/store/migrations.ts and
 * docs/architecture-storage.md). Step 1 is the shape every workspace had when versions began; it
 * accepts any older unversioned shape (missing key columns or titles, the old rate-limit table).
 */
import { createFileLedgerTables } from "../engine/files/file-ledger";
import { migrationSteps } from "../engine/store/migrations";
import { createProfileTables } from "./browser-profiles";
import { addUsageBrowserSeconds, createUsageTable } from "./usage-ledger";
import { createHttpToolTable } from "./workspace-http-tools";
import { createIndexTables } from "./workspace-index";
import { createKeyTables } from "./workspace-keys";
import { createWorkspaceTable } from "./workspace-record";
import { addSecretKinds, createSecretTable } from "./workspace-secrets";
import { createSettingsTables } from "./workspace-settings";

/** Every step of a workspace's SQLite, oldest first. */
export const WORKSPACE_MIGRATIONS = migrationSteps([
  {
    version: 1,
    name: "baseline",
    up(sql) {
      createWorkspaceTable(sql);
      createKeyTables(sql);
      createIndexTables(sql);
      createSettingsTables(sql);
      createUsageTable(sql);
      createSecretTable(sql);
      createHttpToolTable(sql);
      createFileLedgerTables(sql);
      createProfileTables(sql);
    },
  },
  { version: 2, name: "secrets.kind, digits, period, allowed_domains", up: addSecretKinds },
  { version: 3, name: "usage_daily.browser_seconds", up: addUsageBrowserSeconds },
]);
