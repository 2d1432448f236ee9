/** Pages whose API lands with another capability: shows "not available yet" while it 404s. */
import { h } from "../shared/dom";
import { asText } from "../shared/event-types";
import { ApiFailure, api } from "./client";
import { failureText, notice } from "./ui";

/** Lists what `path` returns, or says the capability is not available yet. */
export async function probePage(main: HTMLElement, title: string, path: string): Promise<undefined> {
  main.append(h("h1", {}, title));
  try {
    const body = await api<{ data?: unknown[] }>(path);
    const items = body.data ?? [];
    main.append(
      items.length
        ? h("div", { class: "card" }, ...items.map((item) => h("pre", {}, asText(item))))
        : notice(`No ${title.toLowerCase()} yet.`),
    );
  } catch (err) {
    const missing = err instanceof ApiFailure && (err.status === 404 || err.status === 501);
    main.append(
      notice(missing ? `${title} are not available yet on this Cirrus.` : failureText(err), !missing),
    );
  }
  return undefined;
}
