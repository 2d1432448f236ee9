/**
 * The webhook object's schema steps, in order (see engine/store/migrations.ts and
 * docs/architecture-storage.md). Step 1 is the shape every webhook object had when versions began.
 */
import { migrationSteps } from "../engine/store/migrations";
import { createDeliveryTables } from "./delivery-log";
import { createEndpointTables } from "./endpoint-store";

/** Every step of a workspace's webhook SQLite, oldest first. */
export const WEBHOOK_MIGRATIONS = migrationSteps([
  {
    version: 1,
    name: "baseline",
    up(sql) {
      createEndpointTables(sql);
      createDeliveryTables(sql);
    },
  },
]);
