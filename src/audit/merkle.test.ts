import { describe, expect, it } from 'vitest';
import { EMPTY_ROOT, MerkleTree, leafHash, nodeHash, verifyConsistency, verifyInclusion } from './merkle.ts';

// Golden vectors: the RFC 6962 / 9162 test data of github.com/transparency-dev/merkle (rfc6962/rfc6962_test.go and
// proof/verify_test.go): eight leaves, the roots of the trees of 1..8 of them, and known inclusion and consistency proofs.
const h = (hex: string) => Buffer.from(hex, 'hex');
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(h);
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
].map(h);
// [index (0-based), size, proof]
const INCLUSION: [number, number, string[]][] = [
  [0, 1, []],
  [0, 8, ['96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4']],
  [5, 8, ['bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b', 'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7']],
  [2, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [1, 5, ['6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b']],
];
// [older, newer, proof]
const CONSISTENCY: [number, number, string[]][] = [
  [1, 1, []],
  [1, 8, ['96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7', '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4']],
  [6, 8, ['0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a', 'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7']],
  [2, 5, ['5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e', 'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b']],
  [6, 7, ['0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a', 'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f', 'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7']],
];

const tree = new MerkleTree(LEAVES.map((l) => leafHash(l)));
const hex = (hashes: Buffer[]) => hashes.map((x) => x.toString('hex'));
const flip = (b: Buffer) => Buffer.from(b.map((v, i) => (i === 0 ? v ^ 8 : v)));

describe('Merkle tree (RFC 9162)', () => {
  it('[L2] hashes leaves and nodes with their prefixes, and the empty tree as SHA-256 of nothing', () => {
    expect(EMPTY_ROOT.toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(leafHash(Buffer.from('L123456')).toString('hex')).toBe('395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56');
    expect(nodeHash(Buffer.from('N123'), Buffer.from('N456')).toString('hex')).toBe('aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb');
  });

  it('[L2] the root of every size 1..8 matches the reference', () => {
    expect(tree.root(0)).toEqual(EMPTY_ROOT);
    for (let size = 1; size <= 8; size++) expect(tree.root(size).toString('hex'), `size ${size}`).toBe(ROOTS[size - 1].toString('hex'));
  });

  it('[L2] inclusion proofs are generated as the reference has them and verify', () => {
    for (const [index, size, proof] of INCLUSION) {
      expect(hex(tree.inclusionProof(index, size)), `${index}@${size}`).toEqual(proof);
      expect(verifyInclusion(index, size, tree.leaf(index), proof.map(h), ROOTS[size - 1])).toBe(true);
    }
  });

  it('[L6] a wrong index, size, leaf, root or a changed, extra or missing proof hash fails inclusion', () => {
    const [index, size, hexProof] = INCLUSION[2];
    const proof = hexProof.map(h);
    const root = ROOTS[size - 1];
    const leaf = tree.leaf(index);
    expect(verifyInclusion(index - 1, size, leaf, proof, root)).toBe(false);
    expect(verifyInclusion(index + 1, size, leaf, proof, root)).toBe(false);
    expect(verifyInclusion(index, size * 2, leaf, proof, root)).toBe(false);
    expect(verifyInclusion(index, size / 2, leaf, proof, root)).toBe(false);
    expect(verifyInclusion(index, size, tree.leaf(0), proof, root)).toBe(false);
    expect(verifyInclusion(index, size, leaf, proof, EMPTY_ROOT)).toBe(false);
    expect(verifyInclusion(index, size, leaf, [...proof, root], root)).toBe(false);
    expect(verifyInclusion(index, size, leaf, proof.slice(0, -1), root)).toBe(false);
    for (let i = 0; i < proof.length; i++) expect(verifyInclusion(index, size, leaf, proof.map((p, j) => (i === j ? flip(p) : p)), root)).toBe(false);
  });

  it('[L2] consistency proofs are generated as the reference has them and verify', () => {
    for (const [older, newer, proof] of CONSISTENCY) {
      expect(hex(tree.consistencyProof(older, newer)), `${older}->${newer}`).toEqual(proof);
      expect(verifyConsistency(older, newer, ROOTS[older - 1], ROOTS[newer - 1], proof.map(h))).toBe(true);
    }
  });

  it('[L6] a checkpoint that does not extend the one before fails consistency', () => {
    const [older, newer, hexProof] = CONSISTENCY[2];
    const proof = hexProof.map(h);
    const [r1, r2] = [ROOTS[older - 1], ROOTS[newer - 1]];
    expect(verifyConsistency(older, newer, r2, r1, proof)).toBe(false);
    expect(verifyConsistency(older - 1, newer, r1, r2, proof)).toBe(false);
    expect(verifyConsistency(older, newer * 2, r1, r2, proof)).toBe(false);
    expect(verifyConsistency(older, newer, r1, r2, [])).toBe(false);
    expect(verifyConsistency(older, newer, r1, r2, proof.slice(0, -1))).toBe(false);
    expect(verifyConsistency(older, newer, r1, r2, [proof[0], ...proof])).toBe(false);
    expect(verifyConsistency(newer, older, r2, r1, proof)).toBe(false);
    for (let i = 0; i < proof.length; i++) expect(verifyConsistency(older, newer, r1, r2, proof.map((p, j) => (i === j ? flip(p) : p)))).toBe(false);
  });

  it('[L2] every proof of every pair of sizes up to 70 verifies against the recomputed roots', () => {
    const big = new MerkleTree(Array.from({ length: 70 }, (_, i) => leafHash(String(i))));
    for (let n = 1; n <= 70; n++) {
      const naive = naiveRoot(Array.from({ length: n }, (_, i) => leafHash(String(i))));
      expect(big.root(n).equals(naive), `root ${n}`).toBe(true);
      for (let i = 0; i < n; i++) expect(verifyInclusion(i, n, big.leaf(i), big.inclusionProof(i, n), naive)).toBe(true);
      for (let m = 0; m <= n; m++) expect(verifyConsistency(m, n, big.root(m), naive, big.consistencyProof(m, n)), `${m}->${n}`).toBe(true);
    }
  });
});

/** MTH written straight from RFC 9162's definition, to check the cached one against. */
function naiveRoot(hashes: Buffer[]): Buffer {
  if (hashes.length === 1) return hashes[0];
  let k = 1;
  while (k * 2 < hashes.length) k *= 2;
  return nodeHash(naiveRoot(hashes.slice(0, k)), naiveRoot(hashes.slice(k)));
}
