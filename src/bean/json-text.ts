/**
 * A bean result that is already its JSON text: both transports write `text` as it is (REST as the body, STOMP
 * spliced into the reply), the storefront's result cache keeps it as text. For answers whose JSON is composed of
 * parts kept as text (a listing's product cards), so that no object is built only to be stringified.
 *
 * `T` is the value the text stands for: `toJSON` answers it, so a caller that stringifies the result unaware gets
 * the same JSON (parsed again: slow, never on the transports' path), and the client generator, which follows
 * `toJSON`, types the result as `T`.
 */
export class JsonText<T = unknown> {
  constructor(readonly text: string) {}

  toJSON(): T {
    return JSON.parse(this.text) as T;
  }
}

/** The JSON text of a value: a `JsonText`'s own, anything else stringified. */
export function jsonTextOf(value: unknown): string {
  return value instanceof JsonText ? value.text : JSON.stringify(value);
}
