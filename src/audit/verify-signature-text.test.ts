/**
 * L6: a signature is checked as written. Base64 leaves spare bits in a signature's last character, so a decoder that
 * ignores them reads an edited character as the signed bytes; `askdock audit verify` must call such an edit tampering.
 */
import { describe, expect, it } from 'vitest';
import { exportOf, receiptFor } from '../testing/audit-log.ts';
import { FILES, type ExportFiles } from './export-format.ts';
import { verifyExport } from './verify.ts';

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64 = B64URL.replace('-_', '+/');

/**
 * The last character before the padding with its lowest bit flipped: a spare bit whatever the padding (one `=` leaves 2 spare
 * bits, two leave 4, none in a 64-byte base64url signature leaves 4), so the same bytes to a lenient decoder, an edit to anyone reading.
 */
function spareBitEdit(text: string, alphabet: string): string {
  const at = text.replace(/=+$/, '').length - 1;
  const swapped = alphabet[alphabet.indexOf(text[at]) ^ 1];
  return text.slice(0, at) + swapped + text.slice(at + 1);
}

const withFile = (files: ExportFiles, name: string, change: (text: string) => string) => new Map(files).set(name, change(files.get(name)!));

describe('signatures are checked as written (L6)', () => {
  it('[L6] a receipt whose signature\'s last character was edited: exit 1 naming the receipt file', () => {
    const { files, signer, log } = exportOf();
    const receipt = receiptFor(log.entries[5], signer);
    const edited = spareBitEdit(receipt, B64URL);
    expect(edited).not.toBe(receipt);
    expect(verifyExport(files, [signer], { file: 'r.jws', text: receipt })).toMatchObject({ exit: 0 });
    expect(verifyExport(files, [signer], { file: 'r.jws', text: edited })).toMatchObject({ exit: 1, problem: { file: 'r.jws', detail: expect.stringContaining('does not verify') } });
  });

  it('[L6] a checkpoint or the manifest whose signature\'s last character before the padding was edited: exit 1 naming the file', () => {
    const { files, signer } = exportOf();
    // checkpoints.txt: the first note's signature is its line 5, "— <name> <base64 of key id and signature, 68 bytes>=".
    const note = withFile(files, FILES.checkpoints, (text) => {
      const lines = text.split('\n');
      expect(lines[4]).toMatch(/[^=]=$/);
      lines[4] = spareBitEdit(lines[4], B64);
      return lines.join('\n');
    });
    expect(verifyExport(note, [signer])).toMatchObject({ exit: 1, problem: { file: FILES.checkpoints, line: 1 } });
    const manifest = withFile(files, FILES.manifest, (text) => {
      const sig = /"sig": "([^"]+)"/.exec(text)![1];
      return text.replace(sig, spareBitEdit(sig, B64));
    });
    expect(verifyExport(manifest, [signer])).toMatchObject({ exit: 1, problem: { file: FILES.manifest } });
  });
});
