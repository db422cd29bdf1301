import { Binary } from 'bson';

/**
 * mingo compares values of classes it does not know by their `toString()` (`isEqual`, its sort order, the buckets
 * of `$in`, `$group`, `distinct`), and `Binary.toString()` without an encoding decodes the bytes as UTF-8: distinct
 * bytes that are not valid UTF-8 decode alike ([0x80] and [0x81] both read as U+FFFD), so a filter on one BinData
 * matched the other. This gives the server's thread a lossless default, `<subtype>:<base64>`, as MongoDB tells
 * BinData apart by subtype and bytes. `UUID` has its own `toString()` (its hex digits, also lossless).
 * Called by the worker's entry only: the caller's thread (the app, its driver) keeps bson's own.
 */
type Encoding = 'hex' | 'base64' | 'utf8' | 'utf-8';

export function installLosslessBinaryString(): void {
  const decode = (Object.getOwnPropertyDescriptor(Binary.prototype, 'toString') as PropertyDescriptor).value as (
    this: Binary,
    encoding?: Encoding,
  ) => string;
  Binary.prototype.toString = function (this: Binary, encoding?: Encoding): string {
    return encoding === undefined ? `${this.sub_type}:${decode.call(this, 'base64')}` : decode.call(this, encoding);
  };
}
