/**
 * The screenshot tool: a PNG of a tab (viewport, full page or one element), saved to the
 * workspace files under `screenshots/<conversation>/`. A vision model is then shown the image
 * (../browser/screenshot-vision.ts adds it to the next model request); other models get a
 * description and the path.
 */
import { z } from "zod";
import { pngSize } from "../browser/input-helpers";
import { type BrowserToolDeps, browserAction, TabIdOption } from "./browser-shared";
import { defineTool, type Tool, ToolError } from "./tool";

/** Folder of saved screenshots: `screenshots/<conversation>/tab-<id>-<timestamp>.png`. */
export const SCREENSHOTS_DIR = "screenshots";

/** screenshot's parameters. */
export const ScreenshotArgs = z.object({
  tab_id: TabIdOption,
  full_page: z.boolean().default(false).describe("Capture the whole page, not just the viewport."),
  selector: z.string().min(1).max(1_000).optional().describe("Capture only this element."),
});

const safeName = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100) || "conversation";

/** Creates the screenshot tool. */
export function createScreenshotTool(deps: BrowserToolDeps): Tool {
  const ops = deps.browser;
  return defineTool({
    name: "screenshot",
    description: deps.vision
      ? "Take a PNG screenshot of a tab (viewport, full page or one element). It is saved to the workspace and you are shown the image right after the tool result."
      : "Take a PNG screenshot of a tab (viewport, full page or one element). It is saved to the workspace; you get a description and its path, not the image (use get_tab_content to read the page).",
    parameters: ScreenshotArgs,
    execute: browserAction(ops, async (a, ctx) => {
      const { tab, page } = await ops.resolve(a.tab_id);
      let png: Uint8Array;
      if (a.selector) {
        const el = await page.$(a.selector);
        if (!el) throw new ToolError("not_found", `No element matches "${a.selector}".`);
        png = (await el.screenshot({ type: "png" })) as Uint8Array;
      } else {
        png = (await page.screenshot({ type: "png", fullPage: a.full_page })) as Uint8Array;
      }
      const view = await ops.view(tab, page);
      const size = pngSize(png);
      const name = `${SCREENSHOTS_DIR}/${safeName(ctx.conversationId)}/tab-${tab.id}-${Date.now()}.png`;
      let path: string | null = null;
      let unsaved = "saving screenshots is not available here";
      if (deps.saveFile) {
        try {
          path = await deps.saveFile(name, png, "image/png");
        } catch (err) {
          unsaved = `it could not be saved: ${(err as Error).message}`;
        }
      }
      const shown = Boolean(deps.vision && path);
      const where = path ? `saved to ${path}` : unsaved;
      return {
        tab_id: tab.id,
        url: view.url,
        title: view.title,
        format: "png",
        ...size,
        bytes: png.byteLength,
        saved_to: path,
        ...(shown ? { image_path: path } : {}),
        description: `PNG screenshot (${size.width}x${size.height}) of "${view.title}" at ${view.url}, ${where}. ${
          shown
            ? "The image follows in the next message."
            : "This model is not shown images; use get_tab_content to read the page."
        }`,
      };
    }),
  });
}
