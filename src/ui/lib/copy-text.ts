/** Copies `text` through the Clipboard API; false where it is missing (a plain-http address is no secure context) or refused. */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Selects `el`'s text, so Ctrl+C / ⌘C copies it: the fallback where the clipboard cannot be written. */
export function selectText(el: HTMLElement | null): void {
  if (!el) return;
  const range = document.createRange();
  range.selectNodeContents(el);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}
