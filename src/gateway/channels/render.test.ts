import { describe, expect, it } from 'vitest';
import type { QuestionRecord } from '../../protocol/index.ts';
import { discordComponents } from './discord.ts';
import { action, outcomePost, parseAction, questionPageAddress, questionPost, withCodeBlock } from './render.ts';
import { CHANNELS } from './registry.ts';
import { slackBlocks } from './slack.ts';

const record = (over: Partial<QuestionRecord> = {}): QuestionRecord => ({
  id: 'q_1',
  sessionKey: 's_1',
  runId: 'r_1',
  askedBy: 'agent',
  mode: 'blocking',
  questions: [{ id: 'env', header: 'Environment', question: 'Where to?', options: [{ label: 'Staging', description: 'safe' }, { label: 'Production' }] }],
  createdAtMs: 0,
  expiresAtMs: 1,
  status: 'pending',
  ...over,
});

describe('channel posts', () => {
  it('[H3] Telegram: the options, Other… and Skip; descriptions in the text', () => {
    const post = questionPost(record(), CHANNELS.telegram.capabilities);
    expect(post.text).toBe('Environment: Where to?\n• Staging: safe');
    expect(post.buttons.map((b) => [b.kind, b.label])).toEqual([
      ['option', 'Staging'],
      ['option', 'Production'],
      ['other', 'Other…'],
      ['skip', 'Skip'],
    ]);
  });

  it('[H7][U11] with the gateway\'s publicUrl every posted question links to its own page there; without one, none', () => {
    const url = 'https://askdock.team.example/q/q_1';
    for (const channel of ['telegram', 'slack', 'discord'] as const) {
      for (const q of [record(), record({ questions: [{ ...record().questions[0], multiSelect: true }] })]) {
        const links = questionPost(q, CHANNELS[channel].capabilities, undefined, 'https://askdock.team.example').buttons.filter((b) => b.kind === 'link');
        expect(links).toEqual([{ kind: 'link', label: 'Open in askdock', url }]);
        expect(questionPost(q, CHANNELS[channel].capabilities).buttons.filter((b) => b.kind === 'link')).toEqual([]);
      }
    }
    const rows = discordComponents(questionPost(record(), CHANNELS.discord.capabilities, undefined, 'https://askdock.team.example'));
    expect(rows.flatMap((r) => r.components).some((c) => 'url' in c && c.url === url)).toBe(true);
  });

  it('[H3] Slack: one actions block with the options then Skip; Discord: one action row', () => {
    const post = questionPost(record(), CHANNELS.slack.capabilities);
    const blocks = slackBlocks(post) as { type: string; elements?: { text: { text: string } }[] }[];
    expect(blocks.map((b) => b.type)).toEqual(['section', 'actions']);
    expect(blocks[1].elements?.map((e) => e.text.text)).toEqual(['Staging', 'Production', 'Skip']);
    const rows = discordComponents(questionPost(record(), CHANNELS.discord.capabilities));
    expect(rows).toHaveLength(1);
    expect(rows[0].components.map((c) => ('label' in c ? c.label : ''))).toEqual(['Staging', 'Production', 'Skip']);
  });

  it('[U16] a question with a url gets an Open link button on every platform', () => {
    const q = record();
    (q.questions[0] as { url?: string }).url = 'https://example.com/sso';
    for (const channel of ['telegram', 'slack', 'discord'] as const) {
      expect(questionPost(q, CHANNELS[channel].capabilities).buttons.at(-1)).toEqual({ kind: 'link', label: 'Open link', url: 'https://example.com/sso' });
    }
    const link = discordComponents(questionPost(q, CHANNELS.discord.capabilities)).flatMap((r) => r.components).at(-1);
    expect(link).toMatchObject({ style: 5, url: 'https://example.com/sso' });
  });

  it('[H5] the outcome keeps the question and drops every button', () => {
    const post = outcomePost(record({ status: 'answered', answers: { env: ['Staging'] } }));
    expect(post).toEqual({ text: 'Environment: Where to?\n\nAnswered: Staging', buttons: [] });
    expect(outcomePost(record({ status: 'expired' })).text.endsWith('Expired')).toBe(true);
  });

  it('[E7] a routed question\'s outcome says who answered it, and where', () => {
    const route = { escalation: 'prod', step: 0, notified: ['dana'], eligible: ['dana'] };
    const post = outcomePost(record({ status: 'answered', answers: { env: ['Staging'] }, route, resolvedBy: { identity: 'dana', name: 'Dana', surface: 'channel:slack', atMs: 1 } }));
    expect(post.text).toBe('Environment: Where to?\n\nAnswered: Staging\nAnswered by Dana · Slack');
  });

  it('[E7][E5] a routed approval\'s outcome reads "Answered by <name> · <surface>" under its Allow or Deny; a quorum\'s approvers follow', () => {
    const route = { escalation: 'prod', step: 0, notified: ['ana', 'dana'], eligible: ['ana', 'dana'] };
    const questions = [{ id: 'approval', kind: 'approval' as const, header: 'Bash', question: 'Allow Bash(git push)?', options: [{ label: 'Allow' }, { label: 'Deny' }] }];
    const by = { identity: 'dana', name: 'Dana', surface: 'channel:discord', atMs: 2 };
    const denied = outcomePost(record({ status: 'answered', questions, answers: { approval: ['Deny'] }, route, resolvedBy: by }));
    expect(denied.text).toBe('Bash: Allow Bash(git push)?\n\nAnswered: Deny\nAnswered by Dana · Discord');
    const quorum = { needed: 2, approvals: [{ identity: 'ana', name: 'Ana', surface: 'tui', atMs: 1 }] };
    const allowed = outcomePost(record({ status: 'answered', questions, answers: { approval: ['Allow'] }, route: { ...route, quorum }, resolvedBy: by }));
    expect(allowed.text).toBe('Bash: Allow Bash(git push)?\n\nAnswered: Allow\nAnswered by Dana · Discord\nApprovals: Ana, Dana');
  });

  it('[E4] a routed prompt offers "I\'m on it": a button under one that has buttons, a reply `ack` in the hint of one that has none', () => {
    const route = { escalation: 'prod', step: 0, notified: ['dana'], eligible: ['dana'] };
    expect(questionPost(record({ route }), CHANNELS.slack.capabilities).buttons.map((b) => b.label)).toEqual(['Staging', 'Production', 'Skip', "I'm on it"]);
    const several = record({ route, questions: [{ ...record().questions[0], multiSelect: true }] });
    expect(questionPost(several, CHANNELS.slack.capabilities).text).toMatch(/Reply ack if you are on it\.$/);
    expect(questionPost(record(), CHANNELS.slack.capabilities).text).not.toContain('ack');
  });

  it('[H3] button data fits Telegram\'s 64 bytes for the longest question id, and reads back', () => {
    const id = 'q'.repeat(128);
    const data = action(id, 'other');
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
    expect(parseAction(data)).toEqual({ token: data.split(':')[0], choice: 'other' });
    expect(parseAction('junk:1')).toBeNull();
  });

  it('[X2] a detail rides along as `pre` with the question page\'s address; several are named by their headers', () => {
    const base = { id: 'q1', askedBy: 'agent', mode: 'blocking', createdAtMs: 1, expiresAtMs: null, status: 'pending', runId: 'r1' } as const;
    const one = { ...base, questions: [{ id: 'a', header: 'Bash', question: 'Allow Bash ls?', options: [{ label: 'Allow' }, { label: 'Deny' }], detail: '$ ls -la' }] };
    const post = questionPost(one as QuestionRecord, CHANNELS.discord.capabilities, questionPageAddress('https://askdock.example.com/', 'q 1'));
    expect(post.pre).toBe('$ ls -la');
    expect(post.text).toContain('Whole detail: https://askdock.example.com/q/q%201');
    const two = { ...one, questions: [one.questions[0], { ...one.questions[0], id: 'b', header: 'Edit', detail: '+x' }] };
    expect(questionPost(two as QuestionRecord, CHANNELS.slack.capabilities).pre).toBe('# Bash\n$ ls -la\n\n# Edit\n+x');
    expect(withCodeBlock('Allow?', 'a ``` b')).toBe('Allow?\n\n```\na ``\u200b` b\n```');
  });
});
