/**
 * The conversation object's schema steps, in order (see engine/store/migrations.ts and
 * docs/architecture-storage.md). Step 1 is the shape every conversation had when versions began.
 */
import { createApprovalTables } from "../engine/approvals/approval-ledger";
import { createTabTables } from "../engine/browser/tab-store";
import { createStateTables } from "../engine/loop/state-store";
import { createReadTables } from "../engine/research/read-log";
import { createReviewTable } from "../engine/research/review-store";
import { createEventTables } from "../engine/store/event-log";
import { createMessageTables } from "../engine/store/message-store";
import { migrationSteps } from "../engine/store/migrations";
import { createRunTable } from "../engine/store/run-store";
import { createSteerTable } from "../engine/store/steer-queue";
import { createMetaTable } from "./conversation-meta";
import { createMcpSessionTable } from "./mcp-sessions";

/** Every step of a conversation's SQLite, oldest first. */
export const CONVERSATION_MIGRATIONS = migrationSteps([
  {
    version: 1,
    name: "baseline",
    up(sql) {
      createMetaTable(sql);
      createEventTables(sql);
      createMessageTables(sql);
      createRunTable(sql);
      createSteerTable(sql);
      createApprovalTables(sql);
      createStateTables(sql);
      createTabTables(sql);
      createMcpSessionTable(sql);
    },
  },
  {
    version: 2,
    name: "run_reads, run_reviews",
    up(sql) {
      createReadTables(sql);
      createReviewTable(sql);
    },
  },
]);
