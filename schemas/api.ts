/**
 * The HTTP API's schemas: one zod schema per concept, used to validate requests, type the
 * Durable Objects' answers and generate the OpenAPI document. Each concept lives in its own file;
 * this module re-exports them all.
 */
export * from "./conversations";
export * from "./create-conversation";
export * from "./errors";
export * from "./keys";
export * from "./messages";
export * from "./run-usage";
export * from "./runs";
export * from "./tool-calls";
export * from "./widget-session";
export * from "./workspaces";
