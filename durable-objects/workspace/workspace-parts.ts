/**
 * Assembles one workspace's stores over its SQLite, one per concern: the record, keys and
 * visitors, the conversation and job index, settings, the usage ledger, secrets, HTTP tools, the
 * file ledger and browser profiles. The object class holds the result and delegates.
 */
import { FileLedger } from "../engine/files/file-ledger";
import { secretKeyring } from "../engine/secret-box";
import { BrowserProfiles } from "./browser-profiles";
import { UsageLedger } from "./usage-ledger";
import { HttpToolStore } from "./workspace-http-tools";
import { WorkspaceIndex } from "./workspace-index";
import { KeyStore } from "./workspace-keys";
import { WorkspaceRecordStore } from "./workspace-record";
import { SecretStore } from "./workspace-secrets";
import { WorkspaceSettings } from "./workspace-settings";

/** Everything a workspace object delegates to. */
export interface WorkspaceParts {
  sql: SqlStorage;
  record: WorkspaceRecordStore;
  keys: KeyStore;
  index: WorkspaceIndex;
  settings: WorkspaceSettings;
  usage: UsageLedger;
  secrets: SecretStore;
  tools: HttpToolStore;
  files: FileLedger;
  profiles: BrowserProfiles;
}

/** Builds a workspace's stores; `objectId` names it until its record exists. */
export function workspaceParts(sql: SqlStorage, env: Env, objectId: string): WorkspaceParts {
  const record = new WorkspaceRecordStore(sql);
  const workspaceId = () => record.get()?.id ?? objectId;
  return {
    sql,
    record,
    keys: new KeyStore(sql),
    index: new WorkspaceIndex(sql),
    settings: new WorkspaceSettings(sql),
    usage: new UsageLedger(sql),
    secrets: new SecretStore(sql, () => secretKeyring(env), workspaceId),
    tools: new HttpToolStore(sql),
    files: new FileLedger(sql),
    profiles: new BrowserProfiles(
      sql,
      () => secretKeyring(env),
      (name) => `${workspaceId()}/browser-profile/${name}`,
    ),
  };
}
