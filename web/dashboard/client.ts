/** The dashboard's API client: the workspace key from sessionStorage as a bearer token. */

const STORAGE_KEY = "cirrus-dashboard-key";

/** A refused call with the API's error shape. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The signed-in key, or null. */
export function currentKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Signs in (stores the key for this tab) or out (null). */
export function setKey(key: string | null): void {
  if (key) sessionStorage.setItem(STORAGE_KEY, key);
  else sessionStorage.removeItem(STORAGE_KEY);
}

/** The auth header of every call. */
export function authHeaders(): Record<string, string> {
  return { authorization: `Bearer ${currentKey() ?? ""}` };
}

/** Calls the API and parses JSON; throws {@link ApiFailure} on an error status. */
export async function api<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = authHeaders();
  if (init.json !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path, {
    method: init.method ?? "GET",
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
  if (!res.ok)
    throw new ApiFailure(
      res.status,
      body?.error?.code ?? "http_error",
      body?.error?.message ?? `HTTP ${res.status}`,
    );
  return body as T;
}
