import type { Writable } from 'node:stream';

/**
 * Socket-level output. An event goes to many connections with the same bytes, so it is framed once (RFC 6455 §5.2:
 * server frames are unmasked, and no extension is negotiated) and each recipient only copies the finished frame.
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

/**
 * Holds every socket written to during one event-loop turn and releases them together at the end of it, so all
 * frames a socket got in that turn (a fan-out burst, the responses after it) leave in one system call.
 * The release runs in the same turn's check phase, right after the I/O callbacks and their microtasks.
 */
export class WriteBatcher {
  private held: Writable[] = [];

  private readonly release = () => {
    const held = this.held;
    this.held = [];
    for (const socket of held) socket.uncork();
  };

  /** Call before writing to `socket`; a socket is held at most once per turn. */
  hold(socket: Writable): void {
    // ws corks and uncorks inside each of its sends, so outside of them only this batcher's cork remains.
    if (socket.writableCorked > 0 || socket.destroyed) return;
    if (this.held.length === 0) setImmediate(this.release);
    socket.cork();
    this.held.push(socket);
  }
}
