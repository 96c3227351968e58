import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { dockCodeReady } from '../ui/features/questions/index.tsx';
import { useQuestionTranscriptItems } from '../ui/features/questions/transcript.tsx';
import { resetStores } from './ui-questions.tsx';

// What the QuestionDock's tests (question-dock-*.test.tsx) share: the transcript beside the dock, and their hooks.

export function Transcript({ sessionKey }: { sessionKey: string }) {
  const items = useQuestionTranscriptItems(sessionKey);
  return (
    <div role="log" aria-label="Conversation">
      {items.map((item) => (
        <div key={item.key}>{item.node}</div>
      ))}
    </div>
  );
}

export const dock = () => screen.getByRole('region', { name: 'Questions' });
export const ctrlEnter = '{Control>}{Enter}{/Control}';

/** The app connects only once the dock's chunks are in; so do these tests. Each starts from fresh stores and an empty page. */
export function dockTestHooks(): void {
  beforeAll(() => dockCodeReady);
  beforeEach(resetStores);
  afterEach(cleanup);
}
