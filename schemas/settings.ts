/**
 * Per-workspace settings: the web_search engine and its keys (write-only in the API), the agent
 * defaults for new conversations, the widget's look, the workspace's `allowed_domains`, whether
 * its model can view images and its tool `approvals`.
 */
import { z } from "@hono/zod-openapi";
import { AgentSettings, WidgetSettings } from "./agent-settings";
import { ApprovalPolicy } from "./approvals";
import { BudgetUsd, type CostSettings, DEFAULT_COST_SETTINGS, ModelPrices, ModelPricesUpdate } from "./cost";

/** The search engines web_search can use. */
export const SearchEngineName = z
  .enum(["duckduckgo", "bing", "baidu", "google", "brave", "searxng"])
  .openapi({ description: "The search engine web_search uses", example: "duckduckgo" });
export type SearchEngineName = z.infer<typeof SearchEngineName>;

const httpUrl = z
  .string()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), "must be an http(s) URL");
const secret = z.string().trim().min(1).max(500);

/** Per-engine replacements of the API host (a proxy or mirror; tests point them at a local server). */
export const EngineBaseUrls = z
  .object({
    duckduckgo: httpUrl,
    bing: httpUrl,
    baidu: httpUrl,
    google: httpUrl,
    brave: httpUrl,
  })
  .partial()
  .strict()
  .openapi({
    description: "Replaces an engine's API host, per engine (e.g. a proxy); SearXNG uses searxng_url",
  });
export type EngineBaseUrls = z.infer<typeof EngineBaseUrls>;

/** Search settings as stored (keys included); never sent back to clients. */
export const SearchSettings = z.object({
  engine: SearchEngineName,
  base_urls: EngineBaseUrls,
  searxng_url: httpUrl.nullable(),
  google_cse_id: z.string().max(200).nullable(),
  bing_api_key: secret.nullable(),
  google_api_key: secret.nullable(),
  brave_api_key: secret.nullable(),
});
export type SearchSettings = z.infer<typeof SearchSettings>;

/** What a workspace starts with: DuckDuckGo, no keys. */
export const DEFAULT_SEARCH_SETTINGS: SearchSettings = {
  engine: "duckduckgo",
  base_urls: {},
  searxng_url: null,
  google_cse_id: null,
  bing_api_key: null,
  google_api_key: null,
  brave_api_key: null,
};

/** Hostnames the browser and web_fetch may visit, subdomains included (conversations and workspaces). */
export const AllowedDomains = z
  .array(
    z
      .string()
      .trim()
      .min(1)
      .max(253)
      .regex(
        /^(\*\.)?[^\s/@*?#]+$/,
        "each entry must be a host name such as example.com (no scheme or path)",
      ),
  )
  .max(100)
  .openapi({
    description: "Hostnames the browser (and web_fetch) may visit, subdomains included; absent = any.",
    example: ["example.com", "docs.python.org"],
  });
export type AllowedDomains = z.infer<typeof AllowedDomains>;

/** Whether the model is sent screenshots as images: yes, no, or guessed from its name. */
export const ModelVision = z.union([z.boolean(), z.literal("auto")]).openapi({
  description:
    'Whether the conversation model can view images (screenshots are then sent to it); "auto" guesses from the model name',
  example: "auto",
});
export type ModelVision = z.infer<typeof ModelVision>;

/** The workspace's agent policy as stored. */
export const AgentPolicy = z.object({
  allowed_domains: AllowedDomains.nullable(),
  model_vision: ModelVision,
  approvals: ApprovalPolicy,
});
export type AgentPolicy = z.infer<typeof AgentPolicy>;

/** What a workspace starts with: no domain limit, vision guessed from the model name, no approvals. */
export const DEFAULT_AGENT_POLICY: AgentPolicy = {
  allowed_domains: null,
  model_vision: "auto",
  approvals: {},
};

/** `PUT /v1/settings` body: fields to change; `null` clears one. */
export const SettingsUpdate = z
  .object({
    search: SearchSettings.partial()
      .strict()
      .optional()
      .openapi({
        example: { engine: "brave", brave_api_key: "BSA…" },
        description: "Search settings to change; omitted fields stay as they are, null clears a field",
      })
      .optional(),
    agent: AgentSettings.partial()
      .strict()
      .optional()
      .openapi({ description: "Defaults for new conversations; null restores the deployment's default" }),
    widget: WidgetSettings.partial()
      .strict()
      .optional()
      .openapi({ description: "The widget's look; the script tag's data attributes override it" }),
    allowed_domains: AllowedDomains.nullable().optional().openapi({
      description:
        "Limits the browser and web_fetch of every conversation of the workspace to these hosts (a conversation's own list can only narrow it); null removes the limit",
    }),
    model_vision: ModelVision.optional(),
    approvals: ApprovalPolicy.nullable().optional().openapi({
      description:
        "Approval rules of every conversation of the workspace (replaced whole; null removes them); a conversation's or job's own rules and a tool's default combine with them, the stricter wins",
    }),
    model_prices: ModelPricesUpdate.nullable().optional(),
    daily_budget_usd: BudgetUsd.nullable().optional().openapi({
      description:
        "Dollars the workspace's runs may spend per UTC day; a run that reaches it stops before its next model turn with `cost_limit`. null removes the budget.",
    }),
  })
  .strict()
  .openapi("SettingsUpdate");
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

const KeyMarker = z
  .object({ set: z.boolean() })
  .openapi({ description: "Whether the key is set (never its value)" });

/** Settings as the API shows them: keys only as `{ set }` markers. */
export const SettingsView = z
  .object({
    search: z.object({
      engine: SearchEngineName,
      base_urls: EngineBaseUrls,
      searxng_url: z.string().nullable(),
      google_cse_id: z.string().nullable(),
      bing_api_key: KeyMarker,
      google_api_key: KeyMarker,
      brave_api_key: KeyMarker,
    }),
    agent: AgentSettings,
    widget: WidgetSettings,
    allowed_domains: AllowedDomains.nullable(),
    model_vision: ModelVision,
    approvals: ApprovalPolicy,
    model_prices: ModelPrices.describe(
      "The workspace's price overrides (the built-in table applies to other models).",
    ),
    daily_budget_usd: z.number().nullable(),
  })
  .openapi("Settings");
export type SettingsView = z.infer<typeof SettingsView>;

/** The public view of stored settings. */
export function settingsView(
  s: SearchSettings,
  agent: AgentSettings,
  widget: WidgetSettings,
  policy: AgentPolicy = DEFAULT_AGENT_POLICY,
  cost: CostSettings = DEFAULT_COST_SETTINGS,
): SettingsView {
  return {
    agent,
    widget,
    allowed_domains: policy.allowed_domains,
    model_vision: policy.model_vision,
    approvals: policy.approvals,
    model_prices: cost.model_prices,
    daily_budget_usd: cost.daily_budget_usd,
    search: {
      engine: s.engine,
      base_urls: s.base_urls,
      searxng_url: s.searxng_url,
      google_cse_id: s.google_cse_id,
      bing_api_key: { set: s.bing_api_key !== null },
      google_api_key: { set: s.google_api_key !== null },
      brave_api_key: { set: s.brave_api_key !== null },
    },
  };
}

/** What the chosen engine still lacks, as a sentence, or null when it is usable. */
export function missingForEngine(s: SearchSettings): string | null {
  const need: Record<SearchEngineName, [keyof SearchSettings, string][]> = {
    duckduckgo: [],
    baidu: [],
    bing: [["bing_api_key", "bing_api_key"]],
    google: [
      ["google_api_key", "google_api_key"],
      ["google_cse_id", "google_cse_id (the Custom Search engine id)"],
    ],
    brave: [["brave_api_key", "brave_api_key"]],
    searxng: [["searxng_url", "searxng_url (your SearXNG instance)"]],
  };
  const missing = need[s.engine].filter(([field]) => !s[field]).map(([, label]) => label);
  return missing.length
    ? `The ${s.engine} engine needs ${missing.join(" and ")}; set it in the same request.`
    : null;
}
