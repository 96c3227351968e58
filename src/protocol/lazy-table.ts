/**
 * X1: the method and event tables, built on first use. A table lists each entry as a function that builds it; a built
 * entry replaces its function on first read and is read as a plain property from then on. The table's type is the one
 * the built values give, so `Methods[M]['params']` reads as it always did. A process that reads a few entries
 * (`askdock hook` reads five frames) builds those few schemas, not every method's and event's.
 */

export function lazyTable<T>(entries: { [K in keyof T]: () => T[K] }): { readonly [K in keyof T]: T[K] } {
  const table: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries<() => unknown>(entries)) {
    Object.defineProperty(table, name, {
      enumerable: true,
      configurable: true,
      get() {
        const value: unknown = entry();
        Object.defineProperty(table, name, { value, enumerable: true, configurable: false, writable: false });
        return value;
      },
    });
  }
  return table as { readonly [K in keyof T]: T[K] };
}
