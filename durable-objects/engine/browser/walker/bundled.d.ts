/**
 * The in-page walker bundled into one script (bundled.js, written by scripts/build-walker.ts at
 * build time): an IIFE that defines `cirrusWalker` with `read(selector)`.
 */
export declare const WALKER_BUNDLE: string;
