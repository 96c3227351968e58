/**
 * An event goes to many connections with the same bytes, so it is framed once (RFC 6455 §5.2: server frames are
 * unmasked, and no extension is negotiated) and each recipient only copies the finished frame.
 */
export type WireFrame = Buffer & { readonly __wireFrame: unique symbol };

/** One final, unmasked text frame carrying `text`. */
export function textFrame(text: string): WireFrame {
  const length = Buffer.byteLength(text);
  const head = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + length);
  frame[0] = 0x81; // FIN + opcode 1 (text)
  if (head === 2) frame[1] = length;
  else if (head === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, head, 'utf8');
  return frame as WireFrame;
}
