/**
 * Files (`/v1/files`): browse the workspace's folders, upload, download and delete. Uploads
 * stream the chosen file as the request body; downloads go through a Blob so the key stays in
 * a header (never in a URL).
 */
import { clear, h } from "../ui/dom";
import { encodeFilePath } from "../ui/file-path";
import { ApiFailure, api, authHeaders } from "./client";
import { failureText, notice, when } from "./ui";

interface FileEntry {
  name: string;
  kind: "file" | "directory";
  size: number;
  modified: number | null;
}

const join = (dir: string, name: string): string => (dir ? `${dir}/${name}` : name);

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Saves a workspace file to the computer. */
export async function downloadFile(path: string): Promise<void> {
  const res = await fetch(`/v1/files/${encodeFilePath(path)}`, { headers: authHeaders() });
  if (!res.ok) throw new ApiFailure(res.status, "download_failed", `Could not download ${path}.`);
  const url = URL.createObjectURL(await res.blob());
  const a = h("a", { href: url, download: path.split("/").pop() ?? "file" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The Files page; `arg` is the folder to show. */
export async function filesPage(main: HTMLElement, arg: string): Promise<undefined> {
  const dir = arg.replace(/^\/+|\/+$/g, "");
  main.append(h("h1", {}, "Files"));
  const out = h("div", { "aria-live": "polite" });
  const listing = folderListing(dir, out);
  main.append(folderCrumbs(dir), uploadForm(dir, out, listing.render), out, listing.el);
  await listing.render();
  return undefined;
}

/** The breadcrumb links from the workspace root down to `dir`. */
function folderCrumbs(dir: string): HTMLElement {
  const crumbs = h(
    "nav",
    { "aria-label": "Folder", class: "crumbs" },
    h("a", { href: "#/files" }, "workspace"),
  );
  let acc = "";
  for (const part of dir.split("/").filter(Boolean)) {
    acc = join(acc, part);
    crumbs.append(" / ", h("a", { href: `#/files/${encodeURIComponent(acc)}` }, part));
  }
  return crumbs;
}

/** The upload form: puts the chosen files into `dir` and reloads the listing; reports to `out`. */
function uploadForm(dir: string, out: HTMLElement, reload: () => Promise<void>): HTMLFormElement {
  const picker = h("input", { type: "file", multiple: true });
  const upload = h(
    "form",
    { class: "card" },
    h("label", {}, "Upload to this folder", picker),
    h("button", { type: "submit" }, "Upload"),
  );
  upload.addEventListener("submit", async (e) => {
    e.preventDefault();
    clear(out);
    for (const file of picker.files ?? []) {
      const failure = await uploadFile(join(dir, file.name), file);
      if (failure !== null) {
        out.append(notice(`${file.name}: ${failure}`, true));
        return;
      }
    }
    await reload();
    out.append(notice("Uploaded."));
  });
  return upload;
}

/** Streams one file to `target`; null when stored, else why not. */
async function uploadFile(target: string, file: File): Promise<string | null> {
  const res = await fetch(`/v1/files/${encodeFilePath(target)}`, {
    method: "PUT",
    headers: { ...authHeaders(), "content-type": file.type || "application/octet-stream" },
    body: file,
  }).catch(() => null);
  if (res?.ok) return null;
  const body = (await res?.json().catch(() => null)) as { error?: { message: string } } | null;
  return body?.error?.message ?? "upload failed";
}

/** The card listing folder `dir` and `render`, which (re)loads it; action results go to `out`. */
function folderListing(dir: string, out: HTMLElement): { el: HTMLElement; render(): Promise<void> } {
  const table = h("div", { class: "card" });

  async function render(): Promise<void> {
    clear(table);
    let entries: FileEntry[];
    try {
      entries = (await api<{ entries: FileEntry[] }>(`/v1/files?path=${encodeURIComponent(dir)}`)).entries;
    } catch (err) {
      const empty = err instanceof ApiFailure && err.status === 404 && !dir;
      table.append(empty ? notice("No files yet.") : notice(failureText(err), true));
      return;
    }
    if (!entries.length) {
      table.append(notice("This folder is empty."));
      return;
    }
    table.append(
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h("tr", {}, h("th", {}, "Name"), h("th", {}, "Size"), h("th", {}, "Modified"), h("th", {}, "")),
        ),
        h("tbody", {}, ...entries.map((entry) => entryRow(join(dir, entry.name), entry, out, render))),
      ),
    );
  }

  return { el: table, render };
}

/** One entry's row: its name (a link for a folder), size, date and actions. */
function entryRow(
  path: string,
  entry: FileEntry,
  out: HTMLElement,
  reload: () => Promise<void>,
): HTMLElement {
  const name =
    entry.kind === "directory"
      ? h("a", { href: `#/files/${encodeURIComponent(path)}` }, `${entry.name}/`)
      : h("span", {}, entry.name);
  return h(
    "tr",
    { "data-path": path },
    h("td", {}, name),
    h("td", {}, size(entry.size)),
    h("td", {}, entry.modified ? when(entry.modified) : ""),
    entryActions(path, entry, out, reload),
  );
}

/** The actions cell: Download (files only) and Delete, which reloads the listing. */
function entryActions(
  path: string,
  entry: FileEntry,
  out: HTMLElement,
  reload: () => Promise<void>,
): HTMLElement {
  const actions = h("td");
  if (entry.kind === "file") {
    const get = h("button", { type: "button", class: "secondary" }, "Download");
    get.addEventListener("click", () =>
      downloadFile(path).catch((err) => out.append(notice(failureText(err), true))),
    );
    actions.append(get, " ");
  }
  const del = h("button", { type: "button", class: "danger" }, "Delete");
  del.addEventListener("click", async () => {
    if (!confirm(`Delete ${path}${entry.kind === "directory" ? " and everything in it" : ""}?`)) return;
    clear(out);
    try {
      await api(`/v1/files/${encodeFilePath(path)}`, { method: "DELETE" });
      out.append(notice(`${path} deleted.`));
      await reload();
    } catch (err) {
      out.append(notice(failureText(err), true));
    }
  });
  actions.append(del);
  return actions;
}
