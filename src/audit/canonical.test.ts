import { describe, expect, it } from 'vitest';
import { AuditFormatError, canonicalJson, digestOf, parseCanonical, saltedDigestOf } from './canonical.ts';

describe('canonical JSON (RFC 8785)', () => {
  it('[L2] matches the RFC 8785 section 3.2.2 example: numbers, escapes, literals', () => {
    const input = String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`;
    const want = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;
    expect(canonicalJson(JSON.parse(input))).toBe(want);
  });

  it('[L2] sorts keys by UTF-16 code units as RFC 8785 section 3.2.3 shows', () => {
    const input = String.raw`{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One",
      "\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}`;
    const text = canonicalJson(JSON.parse(input));
    const order = ['Carriage Return', 'One', 'Control', 'Latin Small Letter O With Diaeresis', 'Euro Sign', 'Emoji: Grinning Face', 'Hebrew Letter Dalet With Dagesh'];
    const at = order.map((value) => text.indexOf(`"${value}"`));
    expect(at.every((position, i) => position > (at[i - 1] ?? 0))).toBe(true);
  });

  it('[L2] refuses values with no JSON form, naming the rule', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(AuditFormatError);
    expect(() => canonicalJson(undefined)).toThrow(/RFC 8785/);
    expect(() => canonicalJson([() => 1])).toThrow('$[0] is a function, which has no JSON form');
    expect(() => canonicalJson({ a: { n: 10n } })).toThrow('$.a.n is a bigint');
    expect(() => canonicalJson({ at: new Date(0) })).toThrow('$.at is a Date');
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it('[L6] a line that is JSON but not canonical is refused', () => {
    expect(parseCanonical('{"a":1,"b":2}')).toEqual({ a: 1, b: 2 });
    expect(() => parseCanonical('{"b":2,"a":1}')).toThrow(/not canonical/);
    expect(() => parseCanonical('{"a": 1}')).toThrow(/not canonical/);
    expect(() => parseCanonical('{"a":1')).toThrow(/not JSON/);
  });

  it('[L4] digests are base64url SHA-256 of the canonical JSON; the salted one changes with the salt', () => {
    // echo -n '{"a":1}' | sha256sum: 015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862
    expect(digestOf({ a: 1 })).toBe(Buffer.from('015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862', 'hex').toString('base64url'));
    const a = saltedDigestOf(['yes'], Buffer.alloc(16, 1));
    expect(a).not.toBe(saltedDigestOf(['yes'], Buffer.alloc(16, 2)));
    expect(a).not.toBe(digestOf(['yes']));
    expect(() => saltedDigestOf(['yes'], Buffer.alloc(8))).toThrow(/salt: must be 16 bytes/);
  });
});
