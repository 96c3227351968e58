import { useState, type RefObject } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { copyToClipboard, selectText } from '../../../lib/copy-text.ts';

/**
 * Copies `text()`; without a clipboard (no secure context) `before()` makes the text visible and it is selected for
 * Ctrl+C instead. The outcome is said in a polite status beside the button.
 */
export function CopyButton({ label, text, target, before }: { label: string; text: () => string; target: RefObject<HTMLElement | null>; before?: () => void }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    if (await copyToClipboard(text())) return setSaid('Copied');
    before?.();
    // After the render that shows the text, so what is selected is what would have been copied.
    requestAnimationFrame(() => {
      selectText(target.current);
      setSaid('Selected: press Ctrl+C to copy');
    });
  };
  return (
    <span className="copy-button">
      <Button size="sm" onClick={() => void copy()}>
        {label}
      </Button>
      <span role="status" className="copy-button-status">
        {said}
      </span>
    </span>
  );
}
