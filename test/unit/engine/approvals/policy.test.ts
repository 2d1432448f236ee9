import { describe, expect, it } from "vitest";
import { globMatches, judge, matchRule, stricter } from "../../../../durable-objects/engine/approvals/policy";
import { displayArguments, REDACTED } from "../../../../durable-objects/engine/approvals/redact";
import { ApprovalDecisionBody, ApprovalPolicy } from "../../../../schemas/approvals";

describe("globs over tool names", () => {
  it("match whole names with * and ?, and nothing else is special", () => {
    expect(globMatches("shop__*", "shop__checkout")).toBe(true);
    expect(globMatches("shop__*", "shop__")).toBe(true);
    expect(globMatches("shop__*", "myshop__checkout")).toBe(false);
    expect(globMatches("*", "opfs_delete")).toBe(true);
    expect(globMatches("opfs_?elete", "opfs_delete")).toBe(true);
    expect(globMatches("opfs_?elete", "opfs_ddelete")).toBe(false);
    expect(globMatches("opfs_delete", "opfs_delete_all")).toBe(false);
    expect(globMatches("a-b", "a-b")).toBe(true);
  });
});

describe("the entry of one map that governs a tool", () => {
  it("is the exact name before any glob, then the glob with more literal characters", () => {
    const rules = { "*": "ask", "opfs_*": "deny", opfs_read: "allow" } as const;
    expect(matchRule(rules, "opfs_read")).toEqual({ pattern: "opfs_read", rule: "allow" });
    expect(matchRule(rules, "opfs_delete")).toEqual({ pattern: "opfs_*", rule: "deny" });
    expect(matchRule(rules, "web_fetch")).toEqual({ pattern: "*", rule: "ask" });
    expect(matchRule({}, "web_fetch")).toBeNull();
    expect(matchRule(null, "web_fetch")).toBeNull();
  });

  it("is the stricter one when two globs are as specific", () => {
    expect(matchRule({ "a*": "allow", "*b": "ask" }, "ab")).toEqual({ pattern: "*b", rule: "ask" });
    expect(matchRule({ "*b": "ask", "a*": "allow" }, "ab")).toEqual({ pattern: "*b", rule: "ask" });
  });

  it("never comes from a glob for the run's own controls, only from their exact names", () => {
    for (const name of ["finish", "ask_user", "create_task", "update_task", "list_tasks"])
      expect(matchRule({ "*": "deny" }, name)).toBeNull();
    expect(matchRule({ "*": "deny", finish: "ask" }, "finish")).toEqual({ pattern: "finish", rule: "ask" });
  });
});

describe("judging a call by every level", () => {
  it("lets the stricter level win: deny over ask over allow", () => {
    expect(stricter("allow", "ask")).toBe("ask");
    expect(stricter("deny", "ask")).toBe("deny");
    expect(judge("shout", { workspace: { shout: "allow" }, conversation: { "sh*": "ask" } })).toEqual({
      rule: "ask",
      reason: 'shout needs approval ("sh*": "ask" in the conversation\'s approvals).',
    });
    expect(judge("shout", { workspace: { "*": "deny" }, conversation: { shout: "allow" } })).toEqual({
      rule: "deny",
      reason: 'shout is denied by "*": "deny" in the workspace\'s approvals; it was not run.',
    });
    expect(judge("shout", { workspace: { shout: "allow" }, tool: "ask" })).toEqual({
      rule: "ask",
      reason: 'shout needs approval ("ask" in the tool\'s own default).',
    });
    expect(judge("shout", {})).toEqual({ rule: "allow" });
  });

  it("denies an ask in an unattended run with reason unattended, unless the job's rules allow the tool", () => {
    const workspace = { "shop__*": "ask" } as const;
    expect(judge("shop__buy", { workspace, unattended: true })).toEqual({
      rule: "deny",
      reason: "unattended",
      unattended: true,
    });
    expect(judge("shop__buy", { workspace, conversation: { shop__buy: "allow" }, unattended: true })).toEqual(
      {
        rule: "allow",
      },
    );
    expect(judge("shop__buy", { workspace, conversation: { "*": "ask" }, unattended: true })).toMatchObject({
      rule: "deny",
      reason: "unattended",
    });
    // A deny anywhere is still a deny.
    expect(
      judge("shop__buy", {
        workspace: { shop__buy: "deny" },
        conversation: { "*": "allow" },
        unattended: true,
      }),
    ).toMatchObject({ rule: "deny", reason: expect.stringContaining("workspace") });
  });
});

describe("the approvals schema", () => {
  it("refuses values other than ask, allow and deny, and patterns that are not tool globs", () => {
    expect(ApprovalPolicy.safeParse({ "shop__*": "ask", opfs_delete: "deny", "*": "allow" }).success).toBe(
      true,
    );
    expect(ApprovalPolicy.safeParse({ shout: "maybe" }).success).toBe(false);
    expect(ApprovalPolicy.safeParse({ "a b": "ask" }).success).toBe(false);
    expect(ApprovalPolicy.safeParse({ "": "ask" }).success).toBe(false);
  });

  it("takes decisions approve and deny only, and arguments only with approve", () => {
    expect(ApprovalDecisionBody.safeParse({ decision: "approve", arguments: { a: 1 } }).success).toBe(true);
    expect(ApprovalDecisionBody.safeParse({ decision: "deny", reason: "no" }).success).toBe(true);
    expect(ApprovalDecisionBody.safeParse({ decision: "maybe" }).success).toBe(false);
    expect(ApprovalDecisionBody.safeParse({ decision: "deny", arguments: {} }).success).toBe(false);
  });
});

describe("arguments shown to a person", () => {
  it("have credential fields and known secret values redacted", async () => {
    const shown = await displayArguments(
      JSON.stringify({ user: "ann", password: "hunter2", nested: { api_key: "k-1" }, note: "uses s3cr3t" }),
      async (v) => JSON.parse(JSON.stringify(v).split("s3cr3t").join("<secret>db</secret>")),
    );
    expect(shown).toEqual({
      user: "ann",
      password: REDACTED,
      nested: { api_key: REDACTED },
      note: "uses <secret>db</secret>",
    });
    expect(await displayArguments("not json")).toBe("not json");
  });
});
