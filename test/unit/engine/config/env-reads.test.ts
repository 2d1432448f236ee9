/**
 * Every variable is read through the one env schema, so a flag means the same wherever it is read:
 * no module outside engine/config reads a schema variable off the environment itself (the old
 * `env.ALLOW_PRIVATE_NETWORK === "true"` in the conversation's MCP wiring read "1" as off while the
 * MCP registry read it as on), and each flag's spellings give one meaning in every config reader.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { browserConfig } from "../../../../durable-objects/engine/config/browser-config";
import { EnvVars, readEnv } from "../../../../durable-objects/engine/config/env";
import { webConfig } from "../../../../durable-objects/engine/config/web-config";
import { otlpConfig } from "../../../../durable-objects/engine/telemetry/otlp-config";

const ROOT = resolve(fileURLToPath(import.meta.url), "../../../../..");
const CONFIG = join(ROOT, "durable-objects/engine/config");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** `env.NAME`, `this.env.NAME`, `env["NAME"]`, `(env as { NAME… }).NAME` and `{ NAME } = env`. */
function rawReads(text: string, name: string): boolean {
  const patterns = [
    new RegExp(String.raw`\benv\s*\??\.\s*${name}\b`),
    new RegExp(String.raw`\benv\s*\[\s*["'\`]${name}["'\`]`),
    new RegExp(String.raw`\benv as \{[^}]*\b${name}\b`),
    new RegExp(String.raw`\{[^}]*\b${name}\b[^}]*\}\s*=\s*(?:this\.)?(?:\w+\.)*env\b`),
  ];
  return patterns.some((p) => p.test(text));
}

const FLAG_SPELLINGS: [string | undefined, boolean][] = [
  ["true", true],
  ["TRUE", true],
  ["1", true],
  ["yes", true],
  ["on", true],
  [" True ", true],
  ["false", false],
  ["0", false],
  ["no", false],
  ["OFF", false],
  ["", false],
  [undefined, false],
];

describe("the env schema", () => {
  it("is the only reader of its variables in the Worker and the objects", () => {
    const names = Object.keys(EnvVars.shape);
    const offenders = ["worker", "durable-objects"]
      .flatMap((d) => sources(join(ROOT, d)))
      .filter((file) => !file.startsWith(CONFIG))
      .flatMap((file) => {
        const text = readFileSync(file, "utf8");
        return names.filter((n) => rawReads(text, n)).map((n) => `${relative(ROOT, file)}: ${n}`);
      });
    expect(offenders).toEqual([]);
    // The check sees a raw read when there is one.
    expect(
      rawReads("allowPrivateNetwork: this.p.env.ALLOW_PRIVATE_NETWORK === 'true'", "ALLOW_PRIVATE_NETWORK"),
    ).toBe(true);
  });

  it("gives ALLOW_PRIVATE_NETWORK one meaning for every spelling, in every reader", () => {
    for (const [value, meaning] of FLAG_SPELLINGS) {
      const env = { ALLOW_PRIVATE_NETWORK: value };
      expect(readEnv(env).ALLOW_PRIVATE_NETWORK, String(value)).toBe(meaning);
      expect(webConfig(env).allowPrivateNetwork, String(value)).toBe(meaning);
      expect(browserConfig(env, undefined).policy.allowPrivateNetwork, String(value)).toBe(meaning);
    }
  });

  it("gives every other flag one meaning for every spelling", () => {
    for (const [value, meaning] of FLAG_SPELLINGS) {
      expect(readEnv({ EXAMPLE_TOOLS: value }).EXAMPLE_TOOLS).toBe(meaning);
      const otlp = otlpConfig(
        readEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example", OTEL_CAPTURE_CONTENT: value }),
      );
      expect(otlp?.captureContent, String(value)).toBe(meaning);
    }
  });

  it("refuses an unclear flag value with invalid_config naming it, rather than guessing", () => {
    for (const name of ["ALLOW_PRIVATE_NETWORK", "EXAMPLE_TOOLS", "OTEL_CAPTURE_CONTENT"]) {
      for (const value of ["maybe", "2", "tru"]) {
        expect(() => readEnv({ [name]: value }), `${name}=${value}`).toThrow(
          `${name} must be true or false (got ${JSON.stringify(value)})`,
        );
      }
    }
  });
});
