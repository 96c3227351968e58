import { describe, expect, it } from 'vitest';
import * as sdk from './sdk-entry.ts';

describe("the package's ask_user contract, for an agent that offers the tool to its own model", () => {
  it('[T1][T2][T4] `askdock` exports the tool: its name, the guidance, the JSON Schema, the check of a call and the text for the model', () => {
    expect(sdk.ASK_USER_TOOL_NAME).toBe('ask_user');
    expect(sdk.ASK_USER_DESCRIPTION).toContain('(Recommended)');
    expect(sdk.ASK_USER_INPUT_SCHEMA.required).toEqual(['questions']);
    expect(sdk.ASK_USER_OUTPUT_SCHEMA.properties.status.enum).toEqual(['answered', 'no_answer']);
    const call = { questions: [{ id: 'deploy_target', header: 'Deploy', question: 'Where should I deploy?', options: [{ label: 'Staging (Recommended)' }, { label: 'Production' }] }] };
    expect(sdk.validateAskUser(call).ok).toBe(true);
    expect(sdk.validateAskUser({ questions: [] })).toMatchObject({ ok: false, problems: [{ path: 'questions' }] });
    const answered: sdk.AskUserResult = { status: 'answered', answers: { answers: { deploy_target: ['Staging (Recommended)'] } } };
    expect(sdk.resultText(call.questions, answered)).toBe('Deploy: Staging');
    expect(sdk.resultText(call.questions, { status: 'no_answer', reason: 'expired' })).toMatch(/^No answer \(expired\).*best judgment/);
  });
});
