import { describe, expect, it } from 'vitest';
import { questionRecord } from '../../testing/question-record.ts';
import { questionArrived } from './sync.ts';
import { initialState, type TuiState } from './tui-store.ts';

const asked = (sessionKey: string) => questionRecord({ id: `q-${sessionKey}`, sessionKey });

const open = (over: Partial<TuiState> = {}): TuiState => ({ ...initialState(), sessionKey: 'main', sessions: [{ key: 'other', title: 'Deploys' } as TuiState['sessions'][number]], ...over });

describe('a question that arrives outside the open session (E2)', () => {
  it('[E2] says where it waits', () => {
    expect(questionArrived(open(), asked('other')).flash).toEqual({ text: 'New question in Deploys (Env): /sessions to open it', tone: 'warn' });
  });

  it('[E2] leaves an error on screen as it is, for the person to read', () => {
    const failed = { text: 'Not answered: the gateway refused it', tone: 'error' as const };
    const patch = questionArrived(open({ flash: failed }), asked('other'));
    expect(patch.flash ?? failed).toEqual(failed);
    expect(patch.questions?.['q-other']).toBeDefined();
  });

  it('[V1] says nothing while the session to open is still unknown: it may be this question\'s own', () => {
    expect(questionArrived(open({ sessionKey: null }), asked('other')).flash).toBeUndefined();
  });
});
