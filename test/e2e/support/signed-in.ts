/** A dashboard tab signed in with a workspace key, as a person would: key typed, "Sign in" pressed. */
import type { BrowserContext, Page } from "playwright-core";
import type { Stack } from "./stack";

/** Options of {@link signedIn}. */
export interface SignInOptions {
  /** Every context opened is pushed here, for the test file's afterEach to close. */
  contexts: BrowserContext[];
  viewport?: { width: number; height: number };
}

/** Opens a new browser context on the dashboard and signs in; resolves on the Conversations list. */
export async function signedIn(stack: Stack, key: string, opts: SignInOptions): Promise<Page> {
  const ctx = await stack.browser.newContext({
    viewport: opts.viewport ?? { width: 1100, height: 800 },
    acceptDownloads: true,
  });
  opts.contexts.push(ctx);
  const page = await ctx.newPage();
  await page.goto(`${stack.cirrus}/dashboard/`);
  await page.getByLabel("Workspace secret key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Conversations" }).waitFor();
  return page;
}
