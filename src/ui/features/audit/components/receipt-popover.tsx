import { useMemo, useRef, useState } from 'react';
import { Popover } from 'radix-ui';
import { Button } from '../../../components/ui/button.tsx';
import { copyText } from '../../../lib/copy-text.ts';
import { receiptClaims, receiptLine } from '../lib/receipt-claims.ts';
import '../audit.css';

/**
 * L4: a decided question's receipt: what it records in one line, the signed JWS whole, and Copy. Opens from a button
 * on the question's summary (at once when that was pressed before this code arrived); Escape or a click outside
 * closes it and focus returns to that button.
 */
export function ReceiptPopover({ receipt, openAtStart = false }: { receipt: string; openAtStart?: boolean }) {
  const [said, setSaid] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  const copyButton = useRef<HTMLButtonElement>(null);
  const line = useMemo(() => receiptLine(receiptClaims(receipt)), [receipt]);
  const copy = async () => {
    if (await copyText(receipt)) return setSaid('Copied');
    // No clipboard here (refused, or no secure context): the text is selected for Ctrl+C instead.
    field.current?.select();
    setSaid('Selected: press Ctrl+C to copy');
  };
  return (
    <Popover.Root defaultOpen={openAtStart} onOpenChange={() => setSaid('')}>
      <Popover.Trigger asChild>
        <Button size="sm" variant="ghost" className="au-receipt-trigger">
          Receipt
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="au-popover"
          aria-label="Receipt"
          sideOffset={6}
          align="end"
          collisionPadding={12}
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            copyButton.current?.focus();
          }}
        >
          <p className="au-popover-title">Signed receipt</p>
          <p className="au-receipt-line">{line}</p>
          <textarea ref={field} className="au-receipt-jws" aria-label="Receipt (compact JWS)" value={receipt} readOnly spellCheck={false} />
          <div className="au-receipt-actions">
            <Button ref={copyButton} size="sm" variant="primary" onClick={() => void copy()}>
              Copy
            </Button>
            <span role="status" className="au-receipt-status">
              {said}
            </span>
          </div>
          <p className="au-receipt-hint">
            Anyone with the gateway&rsquo;s public key can check it offline: <code>askdock audit verify DIR --key KEY --receipt FILE</code>
          </p>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
