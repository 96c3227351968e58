import { describe, expect, it } from 'vitest';
import { credentialWarning, detectCredential, detectCredentialIn, looksLikeCredential } from './credentials.ts';

// Real-looking but made-up values, in the shapes providers issue.
const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  '-----END RSA PRIVATE KEY-----',
].join('\n');
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

const samples: Array<[string, string, string]> = [
  ['openai-key', 'OpenAI key', 'sk-proj-4fQ9xL2mR8tZ1vB7nK3cH6jW0pY5sD2aE9uG'],
  ['openai-key', 'legacy key in a sentence', 'here you go: sk-Vb3kT9qLm2Xr7Yp1Wz8Nc4Hd6Fg0JsAeUi5Ko'],
  ['openai-key', 'Anthropic-style key', 'sk-ant-api03-Zq8wX3vB1nM6kL9jH2gF5dS7aP0oI4uY'],
  ['github-token', 'GitHub classic token', 'ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R'],
  ['github-token', 'GitHub OAuth token', 'gho_16C7e42F292c6912E7710c838347Ae178B4a'],
  ['github-pat', 'fine-grained PAT', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'],
  ['slack-token', 'Slack bot token', 'xoxb-2840193840-4920183749201-Ab3dEf6hIj9kLm2nOp5qRs8t'],
  ['slack-token', 'Slack user token', 'token=xoxp-1234567890-0987654321-abcdefABCDEF'],
  ['aws-access-key', 'AWS key id', 'AKIAIOSFODNN7EXAMPLE'],
  ['aws-access-key', 'AWS session key id', 'export AWS_ACCESS_KEY_ID=ASIAY34FZKBOKMUTVV7A'],
  ['private-key', 'RSA PEM', PEM],
  ['private-key', 'OpenSSH key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU='],
  ['private-key', 'PKCS8 key', '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC'],
  ['jwt', 'JWT', JWT],
  ['jwt', 'bearer header', `Authorization: Bearer ${JWT}`],
  ['stripe-key', 'Stripe secret key', 'sk_live_51H8xYzAbCdEfGhIjKlMnOpQr'],
  ['google-api-key', 'Google API key', 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY'],
];

const ordinary: Array<[string, string]> = [
  ['git hash', '3f786850e387550fdab836ed7e6dc881de23001b'],
  ['short git hash', 'fixed in 09dabb6, see caac295'],
  ['URL', 'https://github.com/askdock/askdock/pull/42?tab=files#diff-3f78685'],
  ['URL with query', 'https://example.com/search?q=sk-learn&page=2'],
  ['UUID', '123e4567-e89b-12d3-a456-426614174000'],
  ['sentence', 'Deploy to staging first, then production after lunch.'],
  ['sentence about keys', 'Use the key from the vault, not the one in the README.'],
  ['word with sk- inside', 'The task-runner-configuration-file-lives-here is fine.'],
  ['hyphenated words', 'sk-the-quick-brown-fox-jumps-over-the-lazy-dog'],
  ['scikit', 'pip install sk-learn and numpy'],
  ['github words', 'the github_pat_ prefix is for tokens'],
  ['public key', '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'],
  ['certificate', '-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa'],
  ['base64 data', 'aGVsbG8gd29ybGQ='],
  ['dotted version', 'v1.2.3-beta.4'],
  ['email', 'alice@example.com'],
  ['empty', ''],
  ['option-like text', 'Staging (Recommended)'],
  ['uppercase words', 'AKIA is how AWS key ids start'],
];

describe('[W3] credential detector', () => {
  for (const [kind, name, text] of samples) {
    it(`[W3] flags ${name}`, () => {
      const match = detectCredential(text);
      expect(match?.kind).toBe(kind);
      expect(looksLikeCredential(text)).toBe(true);
    });
  }

  for (const [name, text] of ordinary) {
    it(`[W3] leaves ordinary text alone: ${name}`, () => {
      expect(detectCredential(text)).toBeNull();
    });
  }

  it('[W3] finds a credential among several answers and points at it', () => {
    const match = detectCredentialIn(['Staging', 'my key is AKIAIOSFODNN7EXAMPLE']);
    expect(match).toMatchObject({ kind: 'aws-access-key', index: 10 });
    expect(detectCredentialIn(['Staging', 'Production'])).toBeNull();
  });

  it('[W3] the warning names the shape and never repeats the value', () => {
    const text = 'ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R';
    const warning = credentialWarning(detectCredential(text)!);
    expect(warning).toContain('GitHub token');
    expect(warning).not.toContain(text);
  });
});
