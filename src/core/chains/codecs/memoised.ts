/**
 * A bounded memo of a pure function of a string. Decoding an address spelling (a checksum, a
 * base58 number) costs microseconds, and a rule's `in` over a long list of addresses compares the
 * same literals at every transfer: they are decoded once. Cleared when full, so a stream of new
 * strings costs only the decoding it would have cost anyway.
 */
export function memoised<T>(fn: (text: string) => T, limit = 10_000): (text: string) => T {
  const cache = new Map<string, T>();
  return (text) => {
    if (cache.has(text)) return cache.get(text) as T;
    if (cache.size >= limit) cache.clear();
    const value = fn(text);
    cache.set(text, value);
    return value;
  };
}
