/**
 * A workspace holding one of every resource the API has, each named or filled with a marker that
 * appears nowhere else, so a response of another workspace can be searched for any of it.
 */
import { inject } from "vitest";
import { api, eventually, newWorkspaceKey, script, uniqueKey } from "../helpers";
import type { Operation } from "./operations";

/** The page origin the workspace's publishable key allows. */
export const SHOP = "https://shop.example";

/** A workspace's key, its resources' ids and names, and its marker. */
export interface Fixture {
  workspace: string;
  key: string;
  /** A second secret key and a publishable key of the workspace (their ids). */
  spareKeyId: string;
  pk: string;
  pkId: string;
  conversation: string;
  job: string;
  webhook: string;
  mcpServer: string;
  /** The marker every name and text of the workspace carries. */
  mark: string;
}

const MCP_TOKEN = "mcp-test-token-7f3a9c";

async function made(path: string, json: unknown, token?: string): Promise<Record<string, string>> {
  const res = await api(path, { method: path.startsWith("/v1/files/") ? "PUT" : "POST", json, token });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

/** Adds keys to the workspace: a spare secret key and a publishable key for SHOP. */
async function keysOf(workspace: string, mark: string) {
  const spare = await made(`/v1/workspaces/${workspace}/keys`, { name: `${mark}-spare` });
  const pk = await made(`/v1/workspaces/${workspace}/keys`, {
    name: `${mark}-site`,
    type: "publishable",
    allowed_origins: [SHOP],
  });
  return { spareKeyId: spare.id, pk: pk.key, pkId: pk.id };
}

/** A conversation with one finished run and its own HTTP tool. */
async function conversationOf(mark: string, key: string): Promise<string> {
  const model = uniqueKey(`${mark}-model`);
  await script(model, [{ text: `${mark} answer` }], true);
  const conv = await made("/v1/conversations", { model, title: `${mark} title` }, key);
  const run = await api(`/v1/conversations/${conv.id}/messages`, {
    method: "POST",
    json: { content: `${mark} question`, stream: false },
    token: key,
  });
  if (run.status !== 200) throw new Error(`run: ${run.status} ${await run.text()}`);
  await made(
    `/v1/conversations/${conv.id}/http-tools`,
    { name: `${mark}_conv_tool`, description: `${mark}.`, url: `${pageUrl()}/receiver/${mark}` },
    key,
  );
  return conv.id;
}

/** A job that has run once. */
async function jobOf(mark: string, key: string): Promise<string> {
  const model = uniqueKey(`${mark}-job`);
  await script(model, [{ text: `${mark} report` }], true);
  const job = await made(
    "/v1/jobs",
    { name: `${mark} job`, prompt: `${mark} prompt`, schedule: "0 3 * * *", model },
    key,
  );
  await made(`/v1/jobs/${job.id}/run`, undefined, key);
  await eventually(async () => {
    const runs = await (await api(`/v1/jobs/${job.id}/runs`, { token: key })).json();
    const first = (runs as { data: { status: string }[] }).data[0];
    return first && first.status !== "running";
  }, 20_000);
  return job.id;
}

const pageUrl = () => inject("pageUrl");

/** Creates a workspace and one of every resource in it. */
export async function workspaceWithEverything(mark: string): Promise<Fixture> {
  const { id: workspace, key } = await newWorkspaceKey(mark);
  const keys = await keysOf(workspace, mark);
  const conversation = await conversationOf(mark, key);
  const job = await jobOf(mark, key);
  const tool = { name: `${mark}_tool`, description: `${mark}.`, url: `${pageUrl()}/receiver/${mark}` };
  await made("/v1/tools", { ...tool, headers: { "x-mark": `${mark}-header` } }, key);
  await api(`/v1/secrets/${mark}_secret`, { method: "PUT", json: { value: `${mark}-value` }, token: key });
  await made("/v1/browser/profiles", { name: `${mark}-profile` }, key);
  await api(`/v1/files/${mark}/notes.md`, { method: "PUT", body: `${mark} file`, token: key });
  const webhook = await made(
    "/v1/webhooks",
    { url: `${pageUrl()}/receiver/${mark}-hook`, events: ["run.succeeded"] },
    key,
  );
  const mcp = await made(
    "/v1/mcp/servers",
    { name: `${mark}-mcp`, url: inject("mcpUrls").bearer, headers: { authorization: `Bearer ${MCP_TOKEN}` } },
    key,
  );
  await api("/v1/settings", {
    method: "PUT",
    json: { widget: { title: `${mark} widget`, greeting: `${mark} hello` } },
    token: key,
  });
  return { workspace, key, ...keys, conversation, job, webhook: webhook.id, mcpServer: mcp.id, mark };
}

/** What the workspace's own key reads of its resources: the same before and after another workspace's sweep. */
export async function snapshot(f: Fixture): Promise<Record<string, string>> {
  const reads = [
    `/v1/conversations/${f.conversation}`,
    `/v1/conversations/${f.conversation}/messages`,
    `/v1/conversations/${f.conversation}/http-tools`,
    `/v1/conversations/${f.conversation}/recordings`,
    `/v1/jobs/${f.job}`,
    `/v1/jobs/${f.job}/runs`,
    `/v1/webhooks`,
    `/v1/webhooks/${f.webhook}/deliveries`,
    `/v1/mcp/servers/${f.mcpServer}`,
    "/v1/tools",
    "/v1/keys",
    "/v1/secrets",
    "/v1/browser/profiles",
    "/v1/files",
    `/v1/files/${f.mark}/notes.md`,
    "/v1/settings",
    "/v1/conversations",
    "/v1/jobs",
  ];
  const out: Record<string, string> = {};
  for (const path of reads) {
    const res = await api(path, { token: f.key });
    out[path] = `${res.status} ${await res.text()}`;
  }
  return out;
}

/**
 * Path ids of things the sweep does not create in A, with why: the route is still called with the
 * placeholder, and its 404 comes from the conversation lookup, which is the workspace check.
 */
export const NOT_CREATED: Record<string, { value: string; reason: string }> = {
  takeover_id: { value: "tko_sweep", reason: "a take-over needs a live browser handed to a person" },
  approval_id: { value: "appr_sweep", reason: "a pending approval needs a run held on a tool call" },
  tab_id: { value: "1", reason: "a tab needs a browser session (Browser Rendering)" },
  recording_id: { value: "rec_sweep", reason: "a recording needs a recorded browser session" },
};

/** A's value for a path parameter of an operation: by the parameter and the path it is in. */
export function pathValues(a: Fixture, conversation = a.conversation) {
  const byPrefix: Record<string, [string, string][]> = {
    id: [
      ["/v1/conversations/", conversation],
      ["/v1/jobs/", a.job],
      ["/v1/webhooks/", a.webhook],
      ["/v1/mcp/servers/", a.mcpServer],
      ["/v1/workspaces/", a.workspace],
    ],
    name: [
      ["/v1/conversations/{id}/http-tools/", `${a.mark}_conv_tool`],
      ["/v1/conversations/{id}/tools/", "create_task"],
      ["/v1/tools/", `${a.mark}_tool`],
      ["/v1/secrets/", `${a.mark}_secret`],
      ["/v1/browser/profiles/", `${a.mark}-profile`],
    ],
    keyId: [["/v1/", a.spareKeyId]],
    path: [["/v1/", `${a.mark}/notes.md`]],
  };
  return (param: string, op: Operation): string => {
    if (param in NOT_CREATED) return NOT_CREATED[param].value;
    const hit = byPrefix[param]?.find(([prefix]) => op.template.startsWith(prefix));
    if (hit) return hit[1];
    throw new Error(`The sweep has no value of A's for {${param}} in ${op.method} ${op.template}: add one.`);
  };
}
