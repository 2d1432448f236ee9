/**
 * The secrets typed in a conversation's browser (./conversation-browser.ts): their values are
 * blanked out of every later result; their names are kept in SQLite so the values are read again
 * from the workspace after a wake.
 */
import { type Redaction, redactionOf, SecretRedactor } from "../secrets/secret-redactor";
import type { SecretReader } from "../tools/browser-shared";
import type { TabStore } from "./tab-store";

/** The typed secrets of one conversation's browser and their redaction. */
export class TypedSecrets {
  private readonly typed = new SecretRedactor();
  private readonly newlyTyped: [string, string][] = [];

  constructor(
    private readonly store: TabStore,
    private readonly secrets: SecretReader,
  ) {}

  /** Marks a secret as typed so its value (and its encodings) is blanked out of every later result. */
  remember(name: string, value: string): void {
    this.typed.remember(name, value);
    this.store.addTypedSecret(name);
    this.newlyTyped.push([name, value]);
  }

  /** The values typed since the last call (the conversation redacts them too), once. */
  takeTyped(): [string, string][] {
    return this.newlyTyped.splice(0);
  }

  /** The redaction of every secret typed in this browser, for tool results and run output. */
  readonly redaction: Redaction = redactionOf(this.typed, () => this.load());

  async redact<T>(value: T): Promise<T> {
    await this.load();
    return this.typed.value(value);
  }

  /** After a wake: reads the values of the secrets typed before (names are kept in SQLite). */
  private async load(): Promise<void> {
    for (const name of this.store.typedSecrets()) {
      if (this.typed.knows(name)) continue;
      const secret = await this.secrets.read(name).catch(() => null);
      if (secret) this.typed.remember(name, secret.value);
    }
  }
}
