/** API schemas of the remote browser's live view and the workspace secret store. */
import { z } from "@hono/zod-openapi";
import { BrowserTab } from "./events";
import { AllowedDomains } from "./settings";

/** A secret's name: what type_secret and `<secret>name</secret>` refer to. */
export const SecretName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, "letters, digits, '_', '.', '-' (1-64)")
  .openapi({ param: { name: "name", in: "path" }, example: "shop_password" });

/** What a secret holds: a value typed as it is, or a TOTP seed whose current code is typed. */
export const SecretKind = z
  .enum(["text", "totp"])
  .describe(
    '"text": the value is typed as it is; "totp": the value is a base32 seed and type_secret types its current RFC 6238 code.',
  );
export type SecretKind = z.infer<typeof SecretKind>;

/** Body of `PUT /v1/secrets/{name}`. */
export const PutSecret = z
  .object({
    value: z
      .string()
      .min(1)
      .max(10_000)
      .describe("The secret's value (for totp: the base32 seed); it is never returned."),
    kind: SecretKind.default("text"),
    digits: z.number().int().min(6).max(8).optional().describe("totp only: digits of a code (default 6)."),
    period: z
      .number()
      .int()
      .min(10)
      .max(300)
      .optional()
      .describe("totp only: seconds a code is valid (default 30)."),
    allowed_domains: AllowedDomains.nullable()
      .optional()
      .describe(
        "Hosts (and `*.` suffixes) of the pages type_secret may type this secret into; absent = any http(s) page.",
      ),
  })
  .superRefine((body, ctx) => {
    if (body.kind !== "totp" && (body.digits !== undefined || body.period !== undefined)) {
      ctx.addIssue({ code: "custom", path: ["kind"], message: 'digits and period need kind "totp"' });
    }
    if (body.kind === "totp" && !/^[A-Z2-7]+=*$/i.test(body.value.replace(/[\s-]/g, ""))) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "a totp seed must be base32 (A-Z, 2-7)" });
    }
  })
  .openapi("PutSecret");
export type PutSecret = z.infer<typeof PutSecret>;

/** A stored secret, by name and settings only (never its value). */
export const SecretInfo = z
  .object({
    name: z.string(),
    kind: SecretKind,
    allowed_domains: z.array(z.string()).nullable(),
    updated_at: z.number().describe("Epoch milliseconds."),
  })
  .openapi("SecretInfo");
export type SecretInfo = z.infer<typeof SecretInfo>;

/** `GET /v1/conversations/{id}/tabs`. */
export const TabList = z
  .object({
    data: z.array(BrowserTab.openapi("BrowserTab")),
    browser: z.object({
      connected: z
        .boolean()
        .describe("Whether a browser session is currently recorded for the conversation."),
      launches: z.number().int().describe("Browsers launched for this conversation so far."),
      live_viewers: z
        .number()
        .int()
        .describe("Live views (`…/tabs/{tab_id}/live`) open on this conversation's tabs now."),
    }),
  })
  .openapi("TabList");
export type TabList = z.infer<typeof TabList>;

/** A browser profile's name: what `browser_profile` on conversations and jobs refers to. */
export const ProfileName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, "letters, digits, '_', '.', '-' (1-64)")
  .describe("A browser profile's name.");

/** The `{name}` path parameter of the profile routes. */
export const ProfileNameParam = ProfileName.openapi({
  param: { name: "name", in: "path" },
  example: "shop-login",
});

/** Body of `POST /v1/browser/profiles`. */
export const CreateProfile = z.strictObject({ name: ProfileName }).openapi("CreateBrowserProfile");
export type CreateProfile = z.infer<typeof CreateProfile>;

/** A stored browser profile, without any cookie or storage value. */
export const ProfileInfo = z
  .object({
    name: z.string(),
    origins: z.array(z.string()).describe("Hostnames the profile holds cookies or local storage for."),
    size: z.number().int().describe("Bytes of saved state (before encryption)."),
    created_at: z.number().describe("Epoch milliseconds."),
    updated_at: z.number().describe("Epoch milliseconds of the last save."),
  })
  .openapi("BrowserProfile");
export type ProfileInfo = z.infer<typeof ProfileInfo>;

/** `GET /v1/browser/profiles`. */
export const ProfileList = z.object({ data: z.array(ProfileInfo) }).openapi("BrowserProfileList");

/** `POST /v1/conversations/{id}/browser/save`. */
export const ProfileSaved = z
  .object({
    profile: ProfileInfo,
    saved_sites: z.array(z.string()).describe("The sites whose state this save replaced in the profile."),
  })
  .openapi("BrowserProfileSaved");
export type ProfileSaved = z.infer<typeof ProfileSaved>;

/** One frame of `GET /v1/conversations/{id}/tabs/{tab_id}/live`. */
export const LiveFrame = z
  .object({
    data: z.string().describe("Base64 JPEG."),
    width: z.number().int().describe("The JPEG's width in pixels (input coordinates use these)."),
    height: z.number().int().describe("The JPEG's height in pixels."),
    timestamp: z.number().describe("When the frame was drawn (epoch milliseconds)."),
  })
  .openapi("LiveFrame");
export type LiveFrame = z.infer<typeof LiveFrame>;

/** A coordinate in the live frame's pixels. */
const Coord = z.number().min(0).max(20_000);
/** A scroll distance in CSS pixels. */
const Delta = z.number().min(-100_000).max(100_000);
const Button = z.enum(["left", "middle", "right"]).default("left");
const Point = { x: Coord, y: Coord };

/** Body of `POST /v1/conversations/{id}/tabs/{tab_id}/input`: one trusted input event. */
export const BrowserInput = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("click"), ...Point, button: Button }),
    z.object({ type: z.literal("dblclick"), ...Point, button: Button }),
    z.object({ type: z.literal("move"), ...Point }),
    z.object({ type: z.literal("down"), ...Point, button: Button }),
    z.object({ type: z.literal("up"), ...Point, button: Button }),
    z.object({ type: z.literal("type"), text: z.string().min(1).max(10_000) }),
    z.object({ type: z.literal("key"), key: z.string().min(1).max(40) }),
    z
      .object({
        type: z.literal("scroll"),
        x: Coord.optional(),
        y: Coord.optional(),
        delta_x: Delta.default(0),
        delta_y: Delta.default(0),
      })
      .refine((s) => s.delta_x !== 0 || s.delta_y !== 0, {
        message: "scroll needs delta_x or delta_y",
        path: ["delta_y"],
      }),
  ])
  .openapi("BrowserInput");
export type BrowserInput = z.infer<typeof BrowserInput>;

/** Body of `POST /v1/conversations/{id}/takeover/{takeover_id}/done`. */
export const TakeoverDoneBody = z
  .strictObject({
    note: z
      .string()
      .max(2_000)
      .optional()
      .describe('A note for the agent, e.g. "Signed in; the code was sent by SMS."'),
  })
  .openapi("TakeoverDoneBody");

/** What the done route answers: the result request_takeover returns to the model. */
export const TakeoverDone = z
  .object({
    takeover_id: z.string(),
    status: z.literal("done"),
    note: z.string().nullable(),
    url: z.string().nullable().describe("The tab's URL when the person handed it back."),
    title: z.string().nullable(),
  })
  .openapi("TakeoverDone");
export type TakeoverDone = z.infer<typeof TakeoverDone>;
