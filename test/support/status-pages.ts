/**
 * Pages for web_fetch's error answers, served by the local page server: a missing page, a bot
 * protection's challenge, and servers over their rate limit saying when to come back.
 */
import { addPage } from "./page-server";

addPage("/web/missing", (_req, res) => {
  res.writeHead(404, { "content-type": "text/html" });
  res.end("<html><body><h1>Not Found</h1><p>No such page here.</p></body></html>");
});
/** A bot protection's challenge instead of the page (the header Cloudflare's challenges carry). */
addPage("/web/challenge", (_req, res) => {
  res.writeHead(403, { "content-type": "text/html", "cf-mitigated": "challenge" });
  res.end(
    "<html><head><title>One moment</title></head><body><p>Checking your browser first.</p></body></html>",
  );
});
/** A server over its rate limit, saying when to come back: in seconds, then as a date. */
addPage("/web/busy", (_req, res) => {
  res.writeHead(429, { "content-type": "text/plain", "retry-after": "120" });
  res.end("slow down");
});
addPage("/web/busy-until", (_req, res) => {
  res.writeHead(503, { "content-type": "text/plain", "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" });
  res.end("down for maintenance");
});
