/** `data:` URLs: how binary content reaches opfs_write as a string. */
import { CirrusError } from "../errors";
import { OCTET_STREAM } from "./content-types";

const DATA_URL = /^data:([a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+)?((?:;[a-z0-9_.+-]+=[^;,]*)*)(;base64)?,/i;

/** A decoded data URL. */
export interface DataUrl {
  type: string;
  bytes: Uint8Array;
}

/** A data URL that could not be decoded. */
export class DataUrlError extends CirrusError {
  constructor(message: string) {
    super("invalid_data_url", message);
  }
}

/** Decodes `data:<mime>[;params][;base64],<data>`, or returns null when `s` is not a data URL. */
export function parseDataUrl(s: string): DataUrl | null {
  const m = DATA_URL.exec(s);
  if (!m) return null;
  const type = (m[1] ?? "text/plain") + (m[2] ?? "");
  const payload = s.slice(m[0].length);
  if (!m[3]) return { type, bytes: new TextEncoder().encode(safeDecode(payload)) };
  const clean = payload.replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.replace(/=+$/, "").length % 4 === 1) {
    throw new DataUrlError("The data URL's base64 payload is not valid base64.");
  }
  const bin = atob(clean);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return { type: type || OCTET_STREAM, bytes };
}

function safeDecode(payload: string): string {
  try {
    return decodeURIComponent(payload);
  } catch {
    throw new DataUrlError("The data URL's payload is not valid percent-encoding.");
  }
}
