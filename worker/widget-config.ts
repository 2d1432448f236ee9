/**
 * The widget's look (`GET /v1/widget/config`, read on every page view that shows the widget),
 * cached per isolate so page views of a popular site do not all read the workspace's object.
 * A change through PUT /v1/settings is seen at once in the isolate that made it and within
 * CONFIG_TTL_MS everywhere else.
 */
import { type WidgetLook, widgetLook } from "../schemas/agent-settings";
import { IsolateCache } from "./isolate-cache";
import { workspaceStub } from "./stubs";

/** How long an isolate serves a workspace's widget settings without asking the workspace. */
const CONFIG_TTL_MS = 30_000;
/** Workspaces whose widget settings one isolate remembers. */
const MAX_WORKSPACES = 5_000;

const configs = new IsolateCache<WidgetLook>(MAX_WORKSPACES);

/** The widget's look of a workspace (never its visitors' tool list), from the isolate cache or its object. */
export async function widgetConfig(env: Env, workspaceId: string): Promise<WidgetLook> {
  const cached = configs.get(workspaceId);
  if (cached) return cached;
  const fresh = widgetLook(await workspaceStub(env, workspaceId).getWidgetSettings());
  configs.set(workspaceId, fresh, CONFIG_TTL_MS);
  return fresh;
}

/** Forgets a workspace's widget settings after they changed in this isolate. */
export function forgetWidgetConfig(workspaceId: string): void {
  configs.delete(workspaceId);
}
