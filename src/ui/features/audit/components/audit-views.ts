// One chunk for what the audit feature shows: the receipt's popover (L4).
export { ReceiptPopover } from './receipt-popover.tsx';
