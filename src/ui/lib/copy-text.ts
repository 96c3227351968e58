/**
 * Copies `text` to the clipboard: the async Clipboard API where the page may use it (a secure context), else the
 * older `execCommand('copy')` on a hidden field, which plain-http pages still allow on a click. Resolves to whether
 * either worked, so the caller can tell the person to copy by hand.
 */
export async function copyText(text: string): Promise<boolean> {
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, not focused): the older way may still work.
    }
  }
  return copyThroughField(text);
}

function copyThroughField(text: string): boolean {
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.setAttribute('aria-hidden', 'true');
  field.style.cssText = 'position:fixed;top:0;left:-9999px;opacity:0';
  const before = document.activeElement;
  document.body.append(field);
  try {
    field.select();
    return typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    return false;
  } finally {
    field.remove();
    if (before instanceof HTMLElement) before.focus({ preventScroll: true });
  }
}

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
