import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const OBJECTS = resolve(ROOT, "durable-objects");
const ENGINE = join(OBJECTS, "engine");

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name));
}

/** The relative specifiers a file imports or re-exports, type-only ones included. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found = text.matchAll(
    /(?:import|export)\s[^;]*?\bfrom\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
  );
  return [...found].map((m) => m[1] ?? m[2]).filter((s) => s.startsWith("."));
}

/** The top-level folder of durable-objects/ a path lies in, or null outside it. */
function objectFolder(path: string): string | null {
  const rel = relative(OBJECTS, path);
  return rel.startsWith("..") ? null : rel.split(/[\\/]/)[0];
}

/** The relative .ts files a file imports (type-only ones included), resolved; others dropped. */
function localImports(file: string, known: Set<string>): string[] {
  return specifiers(file)
    .map((spec) => resolve(dirname(file), spec))
    .flatMap((p) => [`${p}.ts`, join(p, "index.ts"), p].filter((c) => known.has(c)).slice(0, 1));
}

/** Every import cycle (strongly connected group of files, Tarjan) among the given files. */
function importCycles(files: string[]): string[][] {
  const known = new Set(files);
  const edges = new Map(files.map((f) => [f, localImports(f, known)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) visit(w);
      if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, low.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      group.push(relative(ROOT, w));
    } while (w !== v);
    if (group.length > 1) cycles.push(group);
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return cycles;
}

describe("the layout", () => {
  it("keeps the engine free of imports from any object folder", () => {
    const offending: string[] = [];
    for (const file of sources(ENGINE)) {
      for (const spec of specifiers(file)) {
        const target = resolve(dirname(file), spec);
        const folder = objectFolder(target);
        if (folder !== null && !["engine", "addresses", "extractor"].includes(folder))
          offending.push(`${relative(ROOT, file)} → ${spec}`);
        if (target.startsWith(join(ROOT, "worker"))) offending.push(`${relative(ROOT, file)} → ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("keeps the tool layer's ToolError out of the pure libraries", () => {
    const pure = ["net", "files", "search", "browser", "model", "store", "config"].map((d) =>
      join(ENGINE, d),
    );
    const offending = [...pure, join(OBJECTS, "extractor")]
      .flatMap((dir) => sources(dir))
      .filter((file) => /\bToolError\b/.test(readFileSync(file, "utf8")))
      .map((file) => relative(ROOT, file));
    expect(offending).toEqual([]);
  });

  it("keeps the extractor a library of its own: it imports nothing outside its folder", () => {
    const extractor = join(OBJECTS, "extractor");
    // Its evals (eval/) are tooling: they read the bench's scoring and the data sets.
    const library = sources(extractor).filter((file) => !file.startsWith(join(extractor, "eval")));
    const offending = library.flatMap((file) =>
      specifiers(file)
        .filter((spec) => !resolve(dirname(file), spec).startsWith(extractor))
        .map((spec) => `${relative(ROOT, file)} → ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it("has no import cycles, type-only imports included, in the worker, the objects and schemas/", () => {
    const files = ["durable-objects", "worker", "schemas"].flatMap((d) => sources(join(ROOT, d)));
    expect(importCycles(files)).toEqual([]);
  });

  it("names every Durable Object class file <folder>/<folder>-object.ts", () => {
    const misplaced = sources(OBJECTS)
      .filter((file) => /\bextends DurableObject\b/.test(readFileSync(file, "utf8")))
      .map((file) => relative(OBJECTS, file))
      .filter((rel) => {
        const [folder, name] = rel.split(/[\\/]/);
        return name !== `${folder}-object.ts`;
      });
    expect(misplaced).toEqual([]);
    expect(sources(OBJECTS).filter((f) => f.endsWith("-object.ts")).length).toBeGreaterThanOrEqual(8);
  });

  it("builds Durable Object ids only in durable-objects/addresses/ (one module per object)", () => {
    const ADDRESSES = join(OBJECTS, "addresses");
    const byHand = ["worker", "durable-objects"]
      .flatMap((d) => sources(join(ROOT, d)))
      .filter((file) => !file.startsWith(ADDRESSES))
      .filter((file) => /\.(idFromName|idFromString|newUniqueId)\(/.test(readFileSync(file, "utf8")))
      .map((file) => relative(ROOT, file));
    expect(byHand).toEqual([]);
    const addressFiles = sources(ADDRESSES);
    expect(
      addressFiles.filter((f) => /idFromName\(/.test(readFileSync(f, "utf8"))).length,
    ).toBeGreaterThanOrEqual(8);
    // The addresses are a leaf: they import only each other and the engine's error classes.
    const reaching = addressFiles.flatMap((f) =>
      specifiers(f)
        .filter((s) => !s.startsWith("./") && s !== "../engine/errors")
        .map((s) => `${relative(ROOT, f)} → ${s}`),
    );
    expect(reaching).toEqual([]);
  });

  it("finds the engine's imports at all (the check is not vacuous)", () => {
    const all = sources(ENGINE).flatMap(specifiers);
    expect(all.length).toBeGreaterThan(100);
    expect(all).toContain("../../../schemas/events");
  });
});
