/** L4: what a person reads of a receipt without verifying it: who decided, the log entry, the signing key. */
export type ReceiptClaims = {
  questionId?: string;
  status?: string;
  decidedBy?: string;
  resolvedBy?: { identity?: string; surface?: string; atMs?: number };
  entryIndex?: number;
  keyId?: string;
};

function decodePart(part: string): unknown {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The readable parts of a compact JWS; an unreadable one gives none (the receipt is still shown whole, to copy). */
export function receiptClaims(jws: string): ReceiptClaims {
  const [header, payload] = jws.split('.');
  try {
    const h = decodePart(header) as Record<string, unknown>;
    const p = decodePart(payload) as Record<string, unknown>;
    const by = p.resolvedBy && typeof p.resolvedBy === 'object' ? (p.resolvedBy as Record<string, unknown>) : undefined;
    return {
      questionId: text(p.questionId),
      status: text(p.status),
      decidedBy: text(p.decidedBy),
      resolvedBy: by ? { identity: text(by.identity), surface: text(by.surface), atMs: typeof by.atMs === 'number' ? by.atMs : undefined } : undefined,
      entryIndex: typeof p.entryIndex === 'number' ? p.entryIndex : undefined,
      keyId: text(h.kid),
    };
  } catch {
    return {};
  }
}

/** One line saying what the receipt records, e.g. "Answered by ana in the dock · log entry 5 · key c331e6c5". */
export function receiptLine(c: ReceiptClaims): string {
  const status = c.status ? c.status[0].toUpperCase() + c.status.slice(1) : 'Decided';
  const who = c.resolvedBy?.identity ? ` by ${c.resolvedBy.identity}` : c.decidedBy && c.decidedBy !== 'person' ? ` by ${c.decidedBy}` : '';
  const parts = [`${status}${who}`];
  if (c.entryIndex !== undefined) parts.push(`log entry ${c.entryIndex}`);
  if (c.keyId) parts.push(`key ${c.keyId}`);
  return parts.join(' · ');
}
