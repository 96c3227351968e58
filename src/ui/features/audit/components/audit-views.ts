// One chunk for what the audit feature shows: the receipt's popover (L4) and the admin's notice (L7/L8).
export { ReceiptPopover } from './receipt-popover.tsx';
export { AuditWatch } from './audit-watch.tsx';
