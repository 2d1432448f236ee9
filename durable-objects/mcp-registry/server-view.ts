/** An MCP server as the API shows it: its row, with whether its OAuth sign-in is connected. */
import type { McpServerView } from "../../schemas/mcp";
import type { ServerRow, ServerStore } from "./server-store";

/** The API's view of a server row. */
export function serverView(
  row: ServerRow,
  oauth: { connected: boolean; expires_at: number | null } | null,
): McpServerView {
  return {
    id: row.id,
    object: "mcp_server",
    name: row.name,
    url: row.url,
    status: row.status,
    tools: (row.tools ?? []).map((t) => ({ name: t.name, description: t.description })),
    ...(row.error ? { error: row.error } : {}),
    header_names: row.header_names,
    allowed_tools: row.allowed_tools,
    approval: row.approval ?? "allow",
    oauth:
      row.oauth || oauth?.connected
        ? {
            client_id: row.oauth?.client_id ?? null,
            connected: oauth?.connected ?? false,
            expires_at: oauth?.expires_at ?? null,
          }
        : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The API's view of a stored server, its OAuth state read from the store. */
export function storedServerView(store: ServerStore, row: ServerRow): McpServerView {
  const o = store.oauth(row.id);
  return serverView(
    row,
    o.tokens || row.oauth ? { connected: o.tokens !== null, expires_at: o.expires_at } : null,
  );
}
