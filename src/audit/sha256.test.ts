import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { digestOf } from './canonical.ts';
import { leafHash, MerkleTree, nodeHash } from './merkle.ts';

// Every hash object made is counted: a leaf, a node and a digest need none.
vi.mock('node:crypto', async (original) => {
  const real = await original<typeof import('node:crypto')>();
  return { ...real, createHash: vi.fn(real.createHash) };
});

describe('SHA-256 in the audit log (L2, L4, L7)', () => {
  it('[L7] re-hashing 1,000 stored lines into the tree makes no hash object per line or node; the hashes are those of a hash object', () => {
    const lines = Array.from({ length: 1_000 }, (_, i) => `{"event":"question.asked","index":${i},"note":"é😀"}`);
    vi.mocked(crypto.createHash).mockClear();
    const tree = new MerkleTree(lines.map(leafHash));
    const digest = digestOf({ title: 'Deploy now?' });
    const objectsMade = vi.mocked(crypto.createHash).mock.calls.length;
    expect(objectsMade).toBe(0);
    const reference = (...parts: (string | Buffer)[]) => parts.reduce((h, p) => h.update(p), crypto.createHash('sha256')).digest();
    expect(leafHash(lines[1])).toEqual(reference(Buffer.from([0]), lines[1]));
    expect(nodeHash(tree.leaf(0), tree.leaf(1))).toEqual(reference(Buffer.from([1]), tree.leaf(0), tree.leaf(1)));
    expect(digest).toBe(reference('{"title":"Deploy now?"}').toString('base64url'));
  });
});
