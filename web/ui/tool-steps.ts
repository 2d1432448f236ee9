/** Tool steps in a transcript: name and status, arguments and result when verbose, file links. */
import { h } from "./dom";
import { asText } from "./event-types";

/** Longest argument/result text shown in the dashboard before it is cut. */
const MAX_SHOWN_CHARS = 20_000;

/** UI text for tool steps. */
export interface ToolStrings {
  running: string;
  done: string;
  failed: string;
}

interface Step {
  name: string;
  args: string;
  head: HTMLElement;
  row: HTMLElement;
  status: HTMLElement;
  details: HTMLElement | null;
}

/** Tracks the tool calls of a transcript. */
export class ToolSteps {
  private readonly steps = new Map<string, Step>();

  constructor(
    private readonly strings: ToolStrings,
    private readonly verbose: boolean,
    private readonly add: (row: HTMLElement) => void,
    private readonly fileLink?: (path: string) => HTMLElement,
  ) {}

  /** A tool call started. */
  start(id: string, name: string): void {
    if (this.steps.has(id)) return;
    const status = h("span", { class: "tool-status" }, this.strings.running);
    const head = h("span", { class: "tool-name" }, name);
    // Collapsed by default: the arguments and the result open with a click.
    const details = this.verbose
      ? h("details", { class: "tool-details" }, h("summary", {}, "Arguments and result"))
      : null;
    const row = h("div", { class: "row tool", "data-status": "running" }, head, " ", status, details);
    this.steps.set(id, { name, args: "", head, row, status, details });
    this.add(row);
  }

  /** Argument text streamed in. */
  args(id: string, delta: string): void {
    const step = this.steps.get(id);
    if (step) step.args += delta;
  }

  /** The tool's result: status, details and a link per file the server says it wrote. */
  result(id: string, content: string, isError: boolean, files: string[] = []): void {
    const step = this.steps.get(id);
    if (!step) return;
    step.row.setAttribute("data-status", isError ? "failed" : "done");
    step.status.textContent = isError ? this.strings.failed : this.strings.done;
    const called = calledTool(step);
    if (called) step.head.textContent = called;
    if (step.details) {
      step.details.append(
        h("pre", { class: "tool-args" }, cut(pretty(step.args))),
        h("pre", { class: "tool-result" }, cut(pretty(content))),
      );
    }
    if (this.fileLink) for (const path of files) this.add(this.fileLink(path));
  }
}

/** The tool a `call_tool` step called (the model found it with find_tools), shown as the step's name. */
function calledTool(step: Step): string | null {
  if (step.name !== "call_tool") return null;
  try {
    const name = (JSON.parse(step.args) as { name?: unknown }).name;
    return typeof name === "string" && name ? name : null;
  } catch {
    return null;
  }
}

function pretty(raw: string): string {
  try {
    return asText(JSON.parse(raw));
  } catch {
    return raw;
  }
}

function cut(text: string): string {
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}…` : text;
}
