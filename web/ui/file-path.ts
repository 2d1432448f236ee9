/** A workspace file path as URL path segments, each percent-encoded (slashes stay separators). */
export const encodeFilePath = (path: string): string =>
  path.split("/").filter(Boolean).map(encodeURIComponent).join("/");
