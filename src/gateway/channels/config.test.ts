import { describe, expect, it } from 'vitest';
import { parseConfig } from '../auth.ts';

const identities = [{ id: 'alice', token: 'alice-token-0123456789abcdef', role: 'operator' as const, scopes: ['operator.admin' as const] }];

describe('channels config', () => {
  it('[H1][H7] accepts the PRODUCT config example keys', () => {
    const config = parseConfig(
      {
        identities,
        channels: {
          telegram: { botToken: '123456:ABC', users: { '5551234': 'alice' }, apiRoot: 'https://api.telegram.org' },
          slack: { botToken: 'xoxb-1', signingSecret: 's', users: { U0123ABC: 'alice' }, apiRoot: 'https://slack.com/api' },
          discord: { botToken: 't', applicationId: '1', publicKey: 'ab'.repeat(32), users: { '81234567890': 'alice' }, apiRoot: 'https://discord.com/api/v10' },
        },
      },
      'config',
    );
    expect(config.channels).toBeDefined();
  });

  it('[H1] names every field at fault, and users mapped to unknown identities', () => {
    expect(() => parseConfig({ identities, channels: { slack: { botToken: 'x', users: {} } } }, 'config')).toThrow(/channels\.slack\.signingSecret/);
    expect(() => parseConfig({ identities, channels: { discord: { botToken: 'x', applicationId: '1', publicKey: 'zz', users: {} } } }, 'config')).toThrow(
      /channels\.discord\.publicKey: publicKey must be 64 hex digits/,
    );
    expect(() => parseConfig({ identities, channels: { telegram: { botToken: 'x', users: { '1': 'mallory' } } } }, 'config')).toThrow(
      'channels.telegram.users.1: "mallory" is not an identity of this config',
    );
    expect(() => parseConfig({ identities, channels: { irc: {} } }, 'config')).toThrow(/channels/);
    expect(() => parseConfig({ identities, channels: { telegram: { botToken: 'x', users: {}, apiRoot: 'ftp://x' } } }, 'config')).toThrow(
      /channels\.telegram\.apiRoot/,
    );
  });

  it('[X2] publicUrl, the address posted question pages live under, is an http(s) URL', () => {
    const config = parseConfig({ identities, channels: { publicUrl: 'https://askdock.example.com', telegram: { botToken: 'x', users: { '1': 'alice' } } } }, 'config');
    expect(config.channels).toMatchObject({ publicUrl: 'https://askdock.example.com' });
    expect(() => parseConfig({ identities, channels: { publicUrl: 'javascript:alert(1)' } }, 'config')).toThrow(/channels\.publicUrl: publicUrl must be an http\(s\) URL/);
  });
});
