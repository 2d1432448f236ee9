import { describe, expect, it } from "vitest";
import {
  mergeIntoProfile,
  type ProfileState,
  sitesOf,
} from "../../../../durable-objects/engine/browser/profile-state";

const cookie = (name: string, domain: string, value = "v", expires?: number) => ({
  name,
  value,
  domain,
  path: "/",
  ...(expires === undefined ? {} : { expires }),
});

describe("saving into a browser profile", () => {
  const profile: ProfileState = {
    cookies: [cookie("sid", "shop.test", "old"), cookie("pref", ".news.test")],
    storage: { "https://shop.test": [["theme", "dark"]], "https://news.test": [["seen", "1"]] },
  };

  it("replaces the sites the saving browser has state for and keeps the others", () => {
    const { state, replaced } = mergeIntoProfile(
      profile,
      { cookies: [cookie("sid", "shop.test", "new")], storage: {} },
      [],
    );
    expect(replaced).toEqual(["shop.test"]);
    expect(state.cookies).toEqual([cookie("pref", ".news.test"), cookie("sid", "shop.test", "new")]);
    expect(state.storage).toEqual({ "https://news.test": [["seen", "1"]] });
  });

  it("removes what was signed out of: sites the browser started with but holds nothing for now", () => {
    const { state, replaced } = mergeIntoProfile(profile, { cookies: [], storage: {} }, ["news.test"]);
    expect(replaced).toEqual(["news.test"]);
    expect(sitesOf(state)).toEqual(["shop.test"]);
  });

  it("drops expired cookies and keeps session cookies", () => {
    const now = Date.now() / 1000;
    const { state } = mergeIntoProfile(
      { cookies: [], storage: {} },
      {
        cookies: [
          cookie("gone", "a.test", "x", now - 10),
          cookie("kept", "a.test", "y", now + 100),
          cookie("s", "b.test"),
        ],
        storage: {},
      },
      [],
    );
    expect(state.cookies.map((c) => c.name)).toEqual(["kept", "s"]);
  });
});
