import { describe, expect, it } from 'vitest';
import { ASK_USER_INPUT_SCHEMA, askUserError, clampTimeoutSeconds, parseAskUser, validateAskUser } from './ask-user.ts';
import { problems, question } from '../testing/ask-user-calls.ts';
import { FOUR_FAULTY, FOUR_FAULTY_PATHS } from '../testing/question-items.ts';

// T1, T3, Q2: what an ask_user call may hold and how each fault is named; the result given back and the published tool
// are in ask-user-tool.test.ts.
describe('validateAskUser', () => {
  it('[T1] accepts a well-formed call and normalises it', () => {
    const v = validateAskUser({
      questions: [
        question({
          header: '  Deploy target env  ',
          question: '  Where should I deploy?  ',
          options: [{ label: ' Staging (Recommended) ', description: '  safe  ' }, { label: 'Production', description: '   ' }],
          multiSelect: false,
        }),
      ],
    });
    expect(v).toEqual({
      ok: true,
      value: {
        questions: [
          {
            id: 'deploy_target',
            header: 'Deploy…',
            question: 'Where should I deploy?',
            options: [{ label: 'Staging (Recommended)', description: 'safe' }, { label: 'Production' }],
          },
        ],
        timeoutSeconds: 900,
        timeoutGiven: false,
      },
    });
  });

  it('[U16] takes a url to open, http or https only, and names the field when it is anything else', () => {
    const v = validateAskUser({ questions: [question({ url: 'https://example.com/pr/42' })] });
    expect(v.ok && v.value.questions[0].url).toBe('https://example.com/pr/42');
    const none = validateAskUser({ questions: [question({ url: null })] });
    expect(none.ok && 'url' in none.value.questions[0]).toBe(false);
    expect(problems({ questions: [question({ url: 'javascript:alert(1)' })] })).toEqual([
      { path: 'questions[0].url', problem: 'url must be an http:// or https:// address' },
    ]);
    expect(ASK_USER_INPUT_SCHEMA.properties?.questions.items?.properties?.url).toMatchObject({ type: 'string', maxLength: 2000 });
  });

  it('[T1] keeps multiSelect only when true', () => {
    const v = parseAskUser({ questions: [question({ multiSelect: true }), question({ id: 'b', multiSelect: false })] });
    expect(v.questions[0].multiSelect).toBe(true);
    expect('multiSelect' in v.questions[1]).toBe(false);
  });

  it('[T1] cuts the header to 12 code points with its ellipsis, never half an emoji', () => {
    const v = parseAskUser({ questions: [question({ header: '🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀' })] });
    expect(Array.from(v.questions[0].header)).toHaveLength(12);
    expect(v.questions[0].header).toBe(`${'🚀'.repeat(11)}…`);
  });

  it('[T3] returns every field at fault at once', () => {
    const found = problems({
      questions: [
        question({ options: [{ label: 'A' }, { label: 'Other' }] }),
        question({ id: 'Bad-Id', header: '   ', options: [{ label: 'A' }, { label: '' }, { label: 'a' }], multiSelect: 'yes' }),
      ],
      timeoutSeconds: 12.5,
    });
    const paths = found.map((p) => p.path);
    expect(paths).toEqual([
      'questions[0].options[1].label',
      'questions[1].header',
      'questions[1].id',
      'questions[1].multiSelect',
      'questions[1].options[1].label',
      'questions[1].options[2].label',
      'timeoutSeconds',
    ]);
    for (const p of found) expect(p.problem.length).toBeGreaterThan(5);
  });

  it('[T3] reports list-level rules even when another item has a field error', () => {
    const found = problems({
      questions: [question({ options: [{ label: 'Yes' }, { label: 'Other…' }] }), question({ question: '' })],
    });
    expect(found).toContainEqual({ path: 'questions[0].options[1].label', problem: expect.stringMatching(/Other/) });
    expect(found).toContainEqual({ path: 'questions[1].question', problem: 'question must not be blank' });
    expect(found).toContainEqual({ path: 'questions[1].id', problem: 'id "deploy_target" is used twice' });
  });

  it('[Q2] requires snake_case ids', () => {
    for (const id of ['Deploy', '1x', 'deploy-target', '', 'deploy target']) {
      expect(problems({ questions: [question({ id })] }).map((p) => p.path)).toEqual(['questions[0].id']);
    }
    expect(validateAskUser({ questions: [question({ id: 'a1_b2' })] }).ok).toBe(true);
  });

  it('[Q2] requires ids unique across questions', () => {
    expect(problems({ questions: [question(), question()] })).toEqual([
      { path: 'questions[1].id', problem: 'id "deploy_target" is used twice' },
    ]);
  });

  it('[T1] takes 1 to 3 questions', () => {
    expect(problems({ questions: [] })).toEqual([{ path: 'questions', problem: 'questions must have 1 to 3 entries' }]);
    const four = ['a', 'b', 'c', 'd'].map((id) => question({ id }));
    expect(problems({ questions: four })).toEqual([{ path: 'questions', problem: 'questions must have 1 to 3 entries' }]);
    expect(problems({})).toEqual([{ path: 'questions', problem: 'questions is required: 1 to 3 questions' }]);
    expect(problems({ questions: 'Where?' })).toEqual([{ path: 'questions', problem: 'questions must be an array' }]);
  });

  it('[T3][Q2] four questions report every other fault at once too', () => {
    const found = problems({ questions: FOUR_FAULTY.map(question) });
    expect(found.map((p) => p.path)).toEqual(FOUR_FAULTY_PATHS);
  });

  it('[T1] takes 2 to 4 options', () => {
    expect(problems({ questions: [question({ options: [{ label: 'Only' }] })] })).toEqual([
      { path: 'questions[0].options', problem: 'options must have 2 to 4 entries' },
    ]);
    const five = ['a', 'b', 'c', 'd', 'e'].map((label) => ({ label }));
    expect(problems({ questions: [question({ options: five })] })[0].path).toBe('questions[0].options');
  });

  it('[T3] too many options still names every option at fault beside the count', () => {
    const five = [{ label: 'y'.repeat(65) }, { label: 'b' }, { label: 'c', description: 'z'.repeat(201) }, { label: 'd' }, { label: 'e' }];
    expect(problems({ questions: [question({ options: five })] }).map((p) => p.path)).toEqual([
      'questions[0].options',
      'questions[0].options[0].label',
      'questions[0].options[2].description',
    ]);
  });

  it('[Q2] limits label, description and question lengths', () => {
    const found = problems({
      questions: [
        question({
          question: 'x'.repeat(1001),
          options: [{ label: 'y'.repeat(65) }, { label: 'B', description: 'z'.repeat(201) }],
        }),
      ],
    });
    expect(found).toEqual([
      { path: 'questions[0].options[0].label', problem: 'label must be at most 64 characters' },
      { path: 'questions[0].options[1].description', problem: 'description must be at most 200 characters' },
      { path: 'questions[0].question', problem: 'question must be at most 1000 characters' },
    ]);
  });

  it('[Q2] refuses duplicate labels, case-insensitively after trimming', () => {
    expect(problems({ questions: [question({ options: [{ label: 'Yes' }, { label: ' yes ' }] })] })).toEqual([
      { path: 'questions[0].options[1].label', problem: 'label "yes" is used twice' },
    ]);
  });

  it('[T4] refuses an authored Other option in its usual spellings', () => {
    for (const label of ['Other', 'other…', 'Other (please specify)', 'Something else', 'OTHER:']) {
      const found = problems({ questions: [question({ options: [{ label: 'A' }, { label }] })] });
      expect(found).toEqual([
        { path: 'questions[0].options[1].label', problem: 'must not be an authored "Other" option: free text is always allowed' },
      ]);
    }
    expect(validateAskUser({ questions: [question({ options: [{ label: 'Others in the team' }, { label: 'Me' }] })] }).ok).toBe(true);
  });

  it('[T3] names unknown fields instead of dropping them silently', () => {
    expect(problems({ questions: [question({ multiselect: true })], timeout: 60 })).toEqual([
      { path: 'questions[0].multiselect', problem: expect.stringContaining('is not a field of a question') },
      { path: 'timeout', problem: expect.stringContaining('is not a field of ask_user') },
    ]);
    expect(problems({ questions: [question({ options: [{ label: 'A', recommended: true }, { label: 'B' }] })] })).toEqual([
      { path: 'questions[0].options[0].recommended', problem: expect.stringContaining('is not a field of an option') },
    ]);
  });

  it('[T3] rejects a call that is not an object', () => {
    for (const input of [null, 'ask', [], 3]) {
      expect(problems(input)).toEqual([{ path: '(root)', problem: expect.stringContaining('must be an object') }]);
    }
  });

  it('[T1] treats null optional fields as left out', () => {
    const v = parseAskUser({
      questions: [question({ multiSelect: null, options: [{ label: 'A', description: null }, { label: 'B' }] })],
      timeoutSeconds: null,
    });
    expect(v.questions[0]).toEqual({ id: 'deploy_target', header: 'Deploy', question: 'Where should I deploy?', options: [{ label: 'A' }, { label: 'B' }] });
    expect(v.timeoutSeconds).toBe(900);
  });

  it('[T1] requires timeoutSeconds to be an integer', () => {
    for (const timeoutSeconds of [1.5, '60', Number.NaN, Number.POSITIVE_INFINITY, true]) {
      expect(problems({ questions: [question()], timeoutSeconds })).toEqual([
        { path: 'timeoutSeconds', problem: expect.stringContaining('integer number of seconds') },
      ]);
    }
  });

  it('[T1] clamps timeoutSeconds to 30..3600 with a default of 900', () => {
    const t = (timeoutSeconds?: number) => parseAskUser({ questions: [question()], timeoutSeconds }).timeoutSeconds;
    expect(t()).toBe(900);
    expect(t(0)).toBe(30);
    expect(t(-5)).toBe(30);
    expect(t(29)).toBe(30);
    expect(t(30)).toBe(30);
    expect(t(600)).toBe(600);
    expect(t(3600)).toBe(3600);
    expect(t(100_000)).toBe(3600);
    expect(clampTimeoutSeconds(undefined)).toBe(900);
    expect(parseAskUser({ questions: [question()], timeoutSeconds: 60 }).timeoutGiven).toBe(true);
  });

  it('[T3] askUserError is INVALID_REQUEST with every problem in details', () => {
    const found = problems({ questions: [question({ id: 'X', options: [] })] });
    const err = askUserError(found);
    expect(err.code).toBe('INVALID_REQUEST');
    expect(err.details).toEqual(found);
    expect(err.message).toContain('questions[0].id');
    expect(err.message).toContain('questions[0].options');
    expect(() => parseAskUser({})).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });
});
