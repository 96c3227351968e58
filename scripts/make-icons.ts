// U17: draws the installable app's icons (public/icons/*.png) from geometry, so they can be made again without an editor:
// `node --import tsx scripts/make-icons.ts`. A white question mark on the brand blue of favicon.svg.
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const BLUE = [0x2f, 0x5b, 0xea] as const;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function png(size: number, rgba: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

const clamp = (x: number) => Math.max(0, Math.min(1, x));
/** Signed distance (in units of the icon's side) to the question mark, centred at (0.5, 0.5) and `scale` tall. */
function glyph(u: number, v: number, scale: number): number {
  const x = (u - 0.5) / scale + 0.5;
  const y = (v - 0.5) / scale + 0.5;
  const w = 0.085;
  const [cx, cy, r] = [0.5, 0.36, 0.15];
  const dx = x - cx;
  const dy = y - cy;
  // The hook: a ring, open at its lower left.
  const ring = dx < 0 && dy > 0 ? Infinity : Math.abs(Math.hypot(dx, dy) - r) - w / 2;
  // The stem from the ring's bottom down, and the dot.
  const stemY = Math.max(0, Math.max(cy + r - y, y - 0.6));
  const stem = Math.hypot(x - 0.5, stemY) - w / 2;
  const dot = Math.hypot(x - 0.5, y - 0.74) - 0.055;
  return Math.min(ring, stem, dot) * scale;
}
function roundedSquare(u: number, v: number, radius: number): number {
  const qx = Math.abs(u - 0.5) - (0.5 - radius);
  const qy = Math.abs(v - 0.5) - (0.5 - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

type Kind = 'any' | 'maskable' | 'badge';
function draw(size: number, kind: Kind): Buffer {
  const out = new Uint8Array(size * size * 4);
  const px = 1 / size;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const u = (x + 0.5) / size;
      const v = (y + 0.5) / size;
      // Maskable icons keep what matters inside the middle 80% (the safe zone a launcher may crop to).
      const ink = clamp(0.5 - glyph(u, v, kind === 'maskable' ? 0.62 : 0.78) / px);
      const i = (y * size + x) * 4;
      if (kind === 'badge') {
        out.set([255, 255, 255, Math.round(ink * 255)], i);
        continue;
      }
      const fill = kind === 'maskable' ? 1 : clamp(0.5 - roundedSquare(u, v, 0.22) / px);
      out.set([BLUE[0] + (255 - BLUE[0]) * ink, BLUE[1] + (255 - BLUE[1]) * ink, BLUE[2] + (255 - BLUE[2]) * ink, fill * 255].map(Math.round), i);
    }
  return png(size, out);
}

mkdirSync('public/icons', { recursive: true });
writeFileSync('public/icons/icon-192.png', draw(192, 'any'));
writeFileSync('public/icons/icon-512.png', draw(512, 'any'));
writeFileSync('public/icons/maskable-512.png', draw(512, 'maskable'));
writeFileSync('public/icons/apple-touch-icon-180.png', draw(180, 'maskable'));
writeFileSync('public/icons/badge-96.png', draw(96, 'badge'));
