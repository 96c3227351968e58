/** Claude Code's tools askdock treats apart from the others. No imports: the hook reads them before it loads anything else. */
export const ASK_USER_QUESTION_TOOL = 'AskUserQuestion';
export const EXIT_PLAN_MODE_TOOL = 'ExitPlanMode';
