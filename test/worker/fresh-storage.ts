/**
 * Runs before every workerd test file. The runner (one workerd per vitest worker) is reused across
 * files, so each file starts by deleting every Durable Object and its storage: a file sees only
 * what it made itself, as it would in a runtime of its own.
 */
import { reset } from "cloudflare:test";
import { beforeAll } from "vitest";

beforeAll(async () => {
  await reset();
});
