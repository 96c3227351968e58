// jsdom has no ResizeObserver; Radix measures its radios and checkboxes with one, the virtualizer the log's size.
// Imported for its effect by component tests.
if (typeof globalThis.ResizeObserver === 'undefined')
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
