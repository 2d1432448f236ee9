import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callTool } from "../files-helpers";
import { api, createConversation } from "../helpers";

const FILES = Array.from({ length: 10 }, (_, i) => `f-${String(i).padStart(2, "0")}.txt`);
const ALL = [...FILES, "a-dir", "z-dir"];

/** Puts ten files and two subfolders straight into the admin workspace's R2 folder `paged/`. */
async function seedFolder(): Promise<void> {
  const keys = [...FILES.map((f) => `paged/${f}`), "paged/a-dir/x.txt", "paged/z-dir/y.txt"];
  await Promise.all(keys.map((k) => env.FILES.put(`ws/default/${k}`, "x")));
}

interface Listing {
  path: string;
  entries: { name: string; kind: string }[];
  truncated: boolean;
  next_cursor: string | null;
}

async function list(query: string): Promise<Listing> {
  const res = await api(`/v1/files?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Listing;
}

async function errorCode(query: string): Promise<[number, string]> {
  const res = await api(`/v1/files?${query}`);
  return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
}

describe("a folder longer than one listing", () => {
  it("is listed page by page through next_cursor, every entry exactly once", async () => {
    await seedFolder();
    const pages = [await list("path=paged&limit=5")];
    while (pages.at(-1)!.next_cursor)
      pages.push(await list(`path=paged&limit=5&cursor=${encodeURIComponent(pages.at(-1)!.next_cursor!)}`));

    expect(pages.map((p) => p.entries.length)).toEqual([5, 5, 2]);
    expect(pages.map((p) => p.truncated)).toEqual([true, true, false]);
    expect(pages.at(-1)!.next_cursor).toBeNull();
    const names = pages.flatMap((p) => p.entries.map((e) => e.name));
    expect([...names].sort()).toEqual([...ALL].sort());
    const dirs = pages.flatMap((p) => p.entries).filter((e) => e.kind === "directory");
    expect(dirs.map((d) => d.name).sort()).toEqual(["a-dir", "z-dir"]);
  });

  it("lists the whole folder at once within the default bound, and opfs_list takes the same cursor", async () => {
    await seedFolder();
    expect(await list("path=paged")).toMatchObject({ truncated: false, next_cursor: null });
    const first = await list("path=paged&limit=5");
    const conv = await createConversation("files-paging");
    const rest = await callTool(conv, "opfs_list", { path: "paged", cursor: first.next_cursor });
    expect(rest.status).toBe(200);
    const restNames = (rest.result as Listing).entries.map((e) => e.name);
    expect(restNames).toHaveLength(ALL.length - 5);
    expect([...first.entries.map((e) => e.name), ...restNames].sort()).toEqual([...ALL].sort());
  });

  it("refuses a cursor it did not give or gave for another folder, and a limit out of range", async () => {
    await seedFolder();
    const other = await list("path=paged&limit=5");
    expect(await errorCode("path=paged&cursor=not-a-cursor")).toEqual([400, "invalid_cursor"]);
    expect(await errorCode(`path=paged/a-dir&cursor=${encodeURIComponent(other.next_cursor!)}`)).toEqual([
      400,
      "invalid_cursor",
    ]);
    expect(await errorCode("path=paged&limit=0")).toEqual([400, "invalid_request"]);
    expect(await errorCode("path=paged&limit=5001")).toEqual([400, "invalid_request"]);
  });
});
