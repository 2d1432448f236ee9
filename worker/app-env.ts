/** The Hono environment shared by every route: bindings and the authenticated principal. */

/** Who is calling: the admin token, or a key of one workspace. */
export interface Principal {
  workspaceId: string;
  admin: boolean;
  keyId: string | null;
  /** Set for a publishable key: the widget visitor, bound to one conversation. */
  publishable?: { conversationId: string | null };
}

export interface AppEnv {
  Bindings: Env;
  Variables: { principal: Principal; corsOrigin?: string };
}
