/**
 * What a conversation takes from its workspace's settings and its own: the allowed_domains of
 * web_fetch and the browser, whether the model is shown screenshots, and where screenshots go.
 */
import type { AgentPolicy } from "../../schemas/settings";
import { modelSeesImages, type ReadImage } from "../engine/browser/screenshot-vision";
import type { FileOps } from "../engine/files/scoped-files";
import type { DomainPolicy } from "../engine/net/allowed-domains";
import type { SaveFile } from "../engine/tools/browser-shared";

/** The rules one conversation runs under. */
export interface ConversationPolicy {
  domains: DomainPolicy;
  vision: boolean;
}

/** Combines the workspace's settings with the conversation's own allowed_domains and model. */
export function conversationPolicy(
  workspace: AgentPolicy,
  conversation: { model: string; allowed_domains?: string[] },
): ConversationPolicy {
  return {
    domains: {
      workspaceDomains: workspace.allowed_domains,
      allowedDomains: conversation.allowed_domains ?? null,
    },
    vision: modelSeesImages(workspace.model_vision, conversation.model),
  };
}

/** Saving and reading back images in the workspace files (counted in its quota). */
export function imageFiles(files: Pick<FileOps, "write" | "open">): { save: SaveFile; read: ReadImage } {
  return {
    save: async (path, bytes, type) => (await files.write(path, bytes, bytes.byteLength, type)).path,
    read: async (path) => {
      const body = await files.open(path);
      return body ? new Uint8Array(await body.arrayBuffer()) : null;
    },
  };
}

/** Moves the Durable Object's alarm earlier to `at` when it is unset or later (never later). */
export async function wakeBy(storage: DurableObjectStorage, at: number): Promise<void> {
  const current = await storage.getAlarm();
  if (current === null || current > at) await storage.setAlarm(at);
}

/** The earliest of some deadlines (null ones ignored), or null. */
export function earliest(...times: (number | null | undefined)[]): number | null {
  const set = times.filter((t): t is number => typeof t === "number");
  return set.length ? Math.min(...set) : null;
}
