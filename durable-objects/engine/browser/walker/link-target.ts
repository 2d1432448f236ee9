/**
 * Where a link points, written as short as it stays exact: `#part` on the same page, a path
 * (`/news/story?id=3`) on the same origin, the whole URL elsewhere. The page's URL is in the
 * tool's result, so a path resolves against it as a relative link in Markdown does.
 */

/** The link's target relative to `pageUrl` when it shares the page's origin; `href` is the raw attribute. */
export function linkTarget(href: string, pageUrl: string): string {
  let target: URL;
  let page: URL;
  try {
    page = new URL(pageUrl);
    target = new URL(href, page);
  } catch {
    return href;
  }
  if (!/^https?:$/.test(target.protocol) || target.origin !== page.origin) return target.href;
  const path = `${target.pathname}${target.search}`;
  if (path === `${page.pathname}${page.search}` && target.hash) return target.hash;
  return `${path}${target.hash}` || "/";
}

/**
 * Where a link without text goes, in a few characters (it is named by this instead of giving its
 * whole target): the host of another site (the scheme of a `mailto:` or `javascript:` one), else
 * the path without its query.
 */
export function linkPlace(href: string, pageUrl: string): string {
  const target = linkTarget(href, pageUrl);
  const other = /^([a-z][a-z0-9+.-]*):(\/\/)?([^/?#]*)/i.exec(target);
  if (other) return other[2] && other[3] ? other[3].replace(/^www\./i, "") : other[1].toLowerCase();
  return target.replace(/[?#].*$/, "") || target;
}
