/**
 * The MCP registry's schema steps, in order (see engine/store/migrations.ts and
 * docs/architecture-storage.md). Step 1 is the shape every registry had when versions began; it
 * accepts the older unversioned shape without the approval column.
 */
import { migrationSteps } from "../engine/store/migrations";
import { createServerTables } from "./server-store";

/** Every step of a workspace's MCP registry SQLite, oldest first. */
export const MCP_REGISTRY_MIGRATIONS = migrationSteps([
  { version: 1, name: "baseline", up: createServerTables },
]);
