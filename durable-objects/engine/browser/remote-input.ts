/**
 * A person's input from the live view, forwarded to the tab as trusted CDP input
 * (Input.dispatchMouseEvent / dispatchKeyEvent through puppeteer's mouse and keyboard).
 * Coordinates are in the pixels of the live view's last frame and mapped to CSS pixels.
 * Nothing here records what was typed.
 */
import type { Page } from "@cloudflare/puppeteer";
import type { BrowserInput } from "../../../schemas/browser-api";
import { pressCombo } from "./input-helpers";
import type { FrameGeometry } from "./live-view";

/** Input that does not fit the tab: the route answers 400 with this code and message. */
export class InputRefused extends Error {
  constructor(
    readonly code: "out_of_range" | "invalid_key",
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The frame geometry to map with: the live view's last frame, else the viewport at 1:1. */
export async function inputGeometry(page: Page, live: FrameGeometry | null): Promise<FrameGeometry> {
  if (live && live.width > 0 && live.height > 0) return live;
  const vp = page.viewport();
  const size = vp
    ? { width: vp.width, height: vp.height }
    : ((await page.evaluate("({ width: innerWidth, height: innerHeight })")) as {
        width: number;
        height: number;
      });
  return { width: size.width, height: size.height, cssWidth: size.width, cssHeight: size.height };
}

/** Frame pixels to CSS pixels; out_of_range when the point is outside the frame. */
function toPage(g: FrameGeometry, x: number, y: number): { x: number; y: number } {
  if (x >= g.width || y >= g.height)
    throw new InputRefused(
      "out_of_range",
      `(${x}, ${y}) is outside the frame, which is ${g.width}×${g.height} pixels.`,
    );
  return { x: (x * g.cssWidth) / g.width, y: (y * g.cssHeight) / g.height };
}

/** Dispatches one input event to the page. */
export async function dispatchInput(page: Page, input: BrowserInput, g: FrameGeometry): Promise<void> {
  switch (input.type) {
    case "click":
    case "dblclick": {
      const p = toPage(g, input.x, input.y);
      await page.mouse.click(p.x, p.y, { button: input.button, count: input.type === "dblclick" ? 2 : 1 });
      return;
    }
    case "move": {
      const p = toPage(g, input.x, input.y);
      await page.mouse.move(p.x, p.y);
      return;
    }
    case "down":
    case "up": {
      const p = toPage(g, input.x, input.y);
      await page.mouse.move(p.x, p.y);
      await (input.type === "down"
        ? page.mouse.down({ button: input.button })
        : page.mouse.up({ button: input.button }));
      return;
    }
    case "type":
      await page.keyboard.type(input.text);
      return;
    case "key":
      try {
        await pressCombo(page, input.key);
      } catch (err) {
        if (/Unknown key/i.test((err as Error).message))
          throw new InputRefused(
            "invalid_key",
            `Unknown key "${input.key}" (use names like Enter, Tab, ArrowDown, Control+A).`,
          );
        throw err;
      }
      return;
    case "scroll": {
      if (input.x !== undefined || input.y !== undefined) {
        const p = toPage(g, input.x ?? 0, input.y ?? 0);
        await page.mouse.move(p.x, p.y);
      }
      await page.mouse.wheel({ deltaX: input.delta_x, deltaY: input.delta_y });
      return;
    }
  }
}
