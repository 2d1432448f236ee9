/**
 * The job object's schema steps, in order (see engine/store/migrations.ts and
 * docs/architecture-storage.md). Step 1 is the shape every job had when versions began.
 */
import { migrationSteps } from "../engine/store/migrations";
import { addJobRunResearchColumns, createJobRunTables } from "./job-ledger";
import { createJobRecordTable } from "./job-record";

/** Every step of a job's SQLite, oldest first. */
export const JOB_MIGRATIONS = migrationSteps([
  {
    version: 1,
    name: "baseline",
    up(sql) {
      createJobRecordTable(sql);
      createJobRunTables(sql);
    },
  },
  { version: 2, name: "job_runs.research", up: addJobRunResearchColumns },
]);
