/**
 * The browser fleet's schema steps, in order (see engine/store/migrations.ts and
 * docs/architecture-storage.md). Step 1 is the shape the fleet had when it began.
 */
import { createPoolTables } from "../engine/browser/fleet/pool-records";
import { createFleetTabTables } from "../engine/browser/tab-store";
import { migrationSteps } from "../engine/store/migrations";

/** Every step of a workspace's browser fleet SQLite, oldest first. */
export const BROWSER_FLEET_MIGRATIONS = migrationSteps([
  {
    version: 1,
    name: "baseline",
    up(sql) {
      createPoolTables(sql);
      createFleetTabTables(sql);
    },
  },
]);
