import { describe, expect, it } from "vitest";
import type { ev } from "../../../../durable-objects/engine/loop/event-builders";
import { OpenStreams } from "../../../../durable-objects/engine/loop/model-step";
import { SecretRedactor, secretForms } from "../../../../durable-objects/engine/secrets/secret-redactor";

const SECRET = "pa$$w0rd-Ünïcode";
const bytes = new TextEncoder().encode(SECRET);
const b64 = (u: Uint8Array) => btoa(String.fromCharCode(...u));
const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

function redactor(): SecretRedactor {
  const r = new SecretRedactor();
  r.remember("pw", SECRET);
  return r;
}

describe("secret redaction", () => {
  it("replaces the value and its escaped, base64, hex and reversed forms", () => {
    const r = redactor();
    const forms = [
      SECRET,
      JSON.stringify(SECRET).slice(1, -1),
      encodeURIComponent(SECRET),
      b64(bytes),
      b64(bytes).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"),
      hex,
      hex.toUpperCase(),
      [...SECRET].reverse().join(""),
    ];
    for (const form of forms) expect(r.text(`before ${form} after`)).toBe("before <secret:pw> after");
  });

  it("finds the value base64-encoded inside a longer encoded string, at any alignment", () => {
    const r = redactor();
    for (const prefix of ["", "u:", "user:", "a"]) {
      const whole = b64(new TextEncoder().encode(`${prefix}${SECRET};tail`));
      expect(r.text(whole)).toContain("<secret:pw>");
    }
  });

  it("walks JSON values and keeps them valid, and leaves short derived forms alone", () => {
    const r = redactor();
    expect(r.value({ a: [`x${SECRET}`], [SECRET]: 1 })).toEqual({ a: ["x<secret:pw>"], "<secret:pw>": 1 });
    expect(secretForms("ab")).toEqual(["ab"]);
  });

  it("redacts a secret split across streamed text deltas", () => {
    const r = redactor();
    const events: ReturnType<typeof ev.textContent>[] = [];
    const open = new OpenStreams(
      (e) => events.push(e as never),
      () => "m1",
      {
        ready: async () => {},
        text: (s) => r.text(s),
        value: (v) => r.value(v),
        longest: () => r.longest(),
        safeCut: (s, cut) => r.safeCut(s, cut),
      },
    );
    const text = `Here: ${b64(bytes)} and ${SECRET}.`;
    for (let i = 0; i < text.length; i += 3)
      open.onDelta({ kind: "text", delta: text.slice(i, i + 3) }, () => "p");
    open.closeAll();
    const streamed = events
      .filter((e) => e.type === "TEXT_MESSAGE_CONTENT")
      .map((e) => (e as { delta: string }).delta)
      .join("");
    expect(streamed).toBe("Here: <secret:pw> and <secret:pw>.");
  });
});
