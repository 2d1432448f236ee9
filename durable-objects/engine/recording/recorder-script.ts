/**
 * The script a recorded tab runs: rrweb's recorder in an isolated world of the page (the page's
 * own scripts can neither see it nor call its channel), masking every input, password and
 * editable text, sending its events in batches through a CDP binding that exists only in that
 * world. Injected into every new document of the tab, and into the current one when recording
 * starts on a page already open.
 */
import { RRWEB_RECORD_UMD } from "./rrweb-record.js";

/** The isolated world the recorder runs in, and the binding it sends batches through. */
export const RECORDER_WORLD = "cirrus-recorder";
export const RECORDER_BINDING = "__cirrusRecordBatch";

/**
 * How the page batches events before sending them. A batch also goes on beforeunload and pagehide,
 * and at once with a click or a typed value (rrweb's incremental MouseInteraction and Input events).
 */
const BATCH_EVENTS = 100;
const BATCH_DELAY_MS = 400;

/**
 * rrweb's options. Inputs (all kinds, passwords included) are masked, so neither typed secrets
 * nor a person's typing during a take-over reach a recording; text inside editable elements is
 * masked too; canvas and fonts are not recorded (size).
 */
const RECORD_OPTIONS = `{
  maskAllInputs: true,
  maskInputOptions: { password: true },
  maskTextSelector: "[contenteditable], [contenteditable] *",
  recordCanvas: false,
  collectFonts: false,
  inlineImages: false,
  slimDOMOptions: "all",
  sampling: { mousemove: 100, scroll: 150 },
}`;

/** The whole script, run once per top-level document (iframes are recorded by the top one). */
export function recorderScript(): string {
  return `(function () {
  // Top documents of web pages only: a tab's blank start has nothing to show.
  if (window.top !== window || window.__cirrusRecorder || !/^https?:$/.test(location.protocol)) return;
  window.__cirrusRecorder = true;
  var module = { exports: {} }, exports = module.exports;
  ${RRWEB_RECORD_UMD}
  var lib = module.exports;
  var record = lib.record || (lib.default && lib.default.record) || lib;
  var send = window[${JSON.stringify(RECORDER_BINDING)}];
  if (typeof record !== "function" || typeof send !== "function") return;
  var batch = [], timer = null;
  function flush() {
    if (timer) { clearTimeout(timer); timer = null; }
    if (!batch.length) return;
    var out = batch; batch = [];
    try { send(JSON.stringify(out)); } catch (e) {}
  }
  var options = ${RECORD_OPTIONS};
  options.emit = function (event) {
    batch.push(event);
    if (batch.length >= ${BATCH_EVENTS} || startsNavigation(event)) flush();
    else if (!timer) timer = setTimeout(flush, ${BATCH_DELAY_MS});
  };
  // A batch sent at pagehide is lost (the page is unloading), and a hidden tab's timers wait: a
  // click or a typed value, which may start a navigation, goes at once with what came before it,
  // and the rest goes at beforeunload, while the page still stands.
  function startsNavigation(event) {
    return event.type === 3 && (event.data.source === 2 || event.data.source === 5);
  }
  record(options);
  addEventListener("beforeunload", flush, true);
  addEventListener("pagehide", flush, true);
  document.addEventListener("visibilitychange", flush, true);
})();`;
}
