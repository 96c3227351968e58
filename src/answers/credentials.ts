/**
 * W3: one detector for text that looks like a credential, shared by every surface that sends free text
 * (Control UI dock and link page, TUI, channels). Pure: no framework, no I/O.
 */

export type CredentialKind =
  | 'openai-key'
  | 'github-token'
  | 'github-pat'
  | 'slack-token'
  | 'aws-access-key'
  | 'private-key'
  | 'jwt'
  | 'stripe-key'
  | 'google-api-key';

export interface CredentialMatch {
  kind: CredentialKind;
  /** Words a person reads in the warning, e.g. "a GitHub token". */
  label: string;
  /** Where in the text the match starts (so a surface can point at it without echoing it). */
  index: number;
}

interface Shape {
  kind: CredentialKind;
  label: string;
  pattern: RegExp;
  /** Extra check on the matched text, for shapes whose prefix alone is too common. */
  accept?: (match: string) => boolean;
}

// A token never starts in the middle of a word: `task-…` is not `sk-…`.
const START = '(?<![A-Za-z0-9_\\-])';
const hasDigitAndLetter = (s: string): boolean => /[0-9]/.test(s) && /[A-Za-z]/.test(s);

const SHAPES: readonly Shape[] = [
  {
    kind: 'private-key',
    label: 'a private key',
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/,
  },
  {
    kind: 'github-pat',
    label: 'a GitHub token',
    pattern: new RegExp(`${START}github_pat_[A-Za-z0-9_]{22,}`),
  },
  {
    kind: 'github-token',
    label: 'a GitHub token',
    pattern: new RegExp(`${START}gh[pousr]_[A-Za-z0-9]{30,}`),
  },
  {
    kind: 'openai-key',
    label: 'an API key',
    pattern: new RegExp(`${START}sk-[A-Za-z0-9_\\-]{20,}`),
    accept: (m) => hasDigitAndLetter(m.slice(3)),
  },
  {
    kind: 'slack-token',
    label: 'a Slack token',
    pattern: new RegExp(`${START}xox[abposr]-[A-Za-z0-9\\-]{10,}`),
    accept: (m) => /[0-9]/.test(m.slice(5)),
  },
  {
    kind: 'aws-access-key',
    label: 'an AWS access key',
    pattern: new RegExp(`${START}(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])`),
  },
  {
    kind: 'stripe-key',
    label: 'a Stripe key',
    pattern: new RegExp(`${START}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`),
  },
  {
    kind: 'google-api-key',
    label: 'a Google API key',
    pattern: new RegExp(`${START}AIza[0-9A-Za-z_\\-]{35}`),
  },
  {
    // header.payload.signature, both JSON parts base64url-encoded objects (`{"` -> `eyJ`)
    kind: 'jwt',
    label: 'a JSON Web Token',
    pattern: new RegExp(`${START}eyJ[A-Za-z0-9_\\-]{8,}\\.eyJ[A-Za-z0-9_\\-]{8,}\\.[A-Za-z0-9_\\-]{16,}`),
  },
];

/** The first credential-shaped piece of `text`, or null when it reads as ordinary text. */
export function detectCredential(text: string): CredentialMatch | null {
  if (!text) return null;
  for (const shape of SHAPES) {
    const global = new RegExp(shape.pattern.source, 'g');
    for (const found of text.matchAll(global)) {
      if (shape.accept && !shape.accept(found[0])) continue;
      return { kind: shape.kind, label: shape.label, index: found.index ?? 0 };
    }
  }
  return null;
}

export function looksLikeCredential(text: string): boolean {
  return detectCredential(text) !== null;
}

/** The first credential-shaped value among several free-text answers (every question's Other text). */
export function detectCredentialIn(texts: Iterable<string>): CredentialMatch | null {
  for (const text of texts) {
    const match = detectCredential(text);
    if (match) return match;
  }
  return null;
}

/** The warning a surface shows before sending; it names the shape, never the text. */
export function credentialWarning(match: CredentialMatch): string {
  return `This looks like ${match.label}. Answers are saved in the conversation and read by the agent; ` +
    'never answer a question with a credential. Send it anyway?';
}

/** W3 with W4: the composer's warning while the agent waits for a secret, offering to send the text as that secret instead. */
export function messageAsSecretOffer(match: CredentialMatch, name: string): string {
  return `This looks like ${match.label}. Messages are saved in the conversation and read by the agent. The agent asked for the secret "${name}": send it as that secret instead (stored encrypted; the agent gets only its name).`;
}

/** The composer's warning (W3): a chat message, not an answer, is about to go to the agent. */
export function messageCredentialWarning(match: CredentialMatch): string {
  return `This looks like ${match.label}. Messages are saved in the conversation and read by the agent. Send it anyway?`;
}
