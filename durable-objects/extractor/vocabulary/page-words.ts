/**
 * The words of pages that rules read, by language: headings over what is not the content, the labels of
 * controls left alone on a line, forum notes and dates. Each list is regular-expression alternatives (matched
 * case-insensitively) with where it comes from: the commit that added it (`git show <hash>` gives the pages
 * and figures it was judged on). A page is read against every language's words, so a language is added by
 * adding its lists (`Language`), with no change to a rule. The rules work by structure on pages none of these
 * words match: the words only add to what they find (test/unit/extractor/other-languages.test.ts).
 */

/** One list of words: regular-expression alternatives, and where they come from. */
export interface Words {
  readonly terms: string;
  readonly from: string;
}

/** What each language names. */
interface PageWords {
  /** A control's whole label, alone on a line of the Markdown. */
  controlLabels: Words[];
  /** The opening of a forum post's edit note, and the bare "edited" mark beside a date. */
  editNotes: Words[];
  editedMarks: Words[];
  /** Month names as dates print them (the first three letters; longer forms match too). */
  months: Words[];
  /** The word after a date told relative to now ("2 hours ago"). */
  agoWords: Words[];
}

/** The languages with words so far (the WCXB and article sets are mostly English). */
export type Language = "en";

export const PAGE_WORDS: Record<Language, PageWords> = {
  en: {
    controlLabels: [
      {
        terms:
          "(?:advertisement|advert|ad)(?: - .{1,40}| \\(.{1,40}\\))?|(?:back|return|scroll|go) to (?:the )?top(?: of (?:the )?page)?|top of page|(?:toggle|hide|show) caption|icon|close|×|✕|back|add to (?:wish ?list|cart|bag|basket|favou?rites)|quick ?(?:view|shop)|compare|load more.{0,20}|show (?:more|less)|(?:expand|collapse)(?: all)?|play|pause|mute|unmute|share(?: this)?|download|(?:slide|image|photo|page) \\d+ (?:of|\\/) \\d+|more (?:in|from) .{1,30}|apply (?:now|today)|sign in to continue|(?:read more|continue reading|learn more)(?: ?[→›»])?",
        from: "6ee754c (session 11, control-labels.ts), widened by 7925170, f56a19f, f640398 and 472ea6c (WCXB listing, collection and article pages)",
      },
    ],
    editNotes: [
      {
        terms: "last edited\\b|last edit:|edited\\b.{1,60}?\\bby\\b|this post was last modified\\b",
        from: 'eb32518 (session 11): phpBB, vBulletin, FluxBB "Last edited by", Invision "Edited <date> by", SMF "Last Edit:", MyBB',
      },
    ],
    editedMarks: [{ terms: "\\(edited\\)", from: "eb32518: Invision's mark beside a post's date" }],
    months: [
      {
        terms: "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec",
        from: "46c033f (session 5: dates in forum posts)",
      },
    ],
    agoWords: [{ terms: "ago", from: "46c033f; 741ee31 (session 11: relative post dates)" }],
  },
};

/** Every language's alternatives for one list, joined for a regular expression. */
function anyOf(list: keyof PageWords): string {
  return Object.values(PAGE_WORDS)
    .flatMap((words) => words[list].map((w) => w.terms))
    .join("|");
}

/** A control's whole label, read without Markdown marks (headings, bullets, emphasis, link brackets). */
export const CONTROL_LABEL = new RegExp(`^(?:${anyOf("controlLabels")})$`, "i");
/** An edit note's opening, or the bare "edited" mark beside a post's date. */
export const EDIT_NOTE = new RegExp(
  String.raw`^[\s(«]*(${anyOf("editNotes")})|^(?:${anyOf("editedMarks")})$`,
  "i",
);
const months = anyOf("months");
/** Dates and times as posts print them (numbers, month names, "ago"): they repeat in a thread written in one day. */
export const DATE_LIKE = new RegExp(
  String.raw`\d{1,4}\s*[/.:-]\s*\d|\b(${months})[a-z]*\.?\s+\d|\d\s+(${months})|\b(?:${anyOf("agoWords")})\b`,
  "i",
);
