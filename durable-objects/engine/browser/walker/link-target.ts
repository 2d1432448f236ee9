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
