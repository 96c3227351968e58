import { useCallback, useRef, useState, type ReactNode } from 'react';
import type { Answers, QuestionRecord } from '../../protocol/index.ts';
import { detectCredential } from '../../answers/credentials.ts';
import { readAsChoice } from '../../answers/plain-text.ts';
import { ChoiceAlert, type AlertChoice } from '../components/ui/alert-dialog.tsx';
import { useOnlyDockedAsync, usePendingSecret, useProvideSecretValue, useQueueAsyncAnswer } from '../features/questions/index.tsx';

type Asking = { title: string; description: string; choices: AlertChoice<string>[]; resolve: (choice: string | null) => void };

/** What the composer says when the person steps back from a check: the words stay in the box. */
export const KEPT_TO_EDIT = 'kept here to edit';

const headerOf = (record: QuestionRecord) => record.questions[0].header || record.questions[0].question;
const valuesOf = (answers: Answers) => Object.values(answers).flat().join(', ');

/**
 * Checks a composer message before it leaves (W3, U8): a credential-shaped text asks first and may go as the pending
 * secret instead; a reply like `2` or an option's label while one async question waits asks whether it is that
 * question's answer (then it goes through the outbox as the dock would) or a chat message.
 */
export function useComposerChecks(sessionKey: string, sendMessage: (text: string) => Promise<void>): { send: (text: string) => Promise<void>; dialog: ReactNode } {
  const docked = useOnlyDockedAsync(sessionKey);
  const secret = usePendingSecret(sessionKey);
  const queueAnswer = useQueueAsyncAnswer();
  const provideSecret = useProvideSecretValue();
  const [asking, setAsking] = useState<Asking | null>(null);
  const latest = useRef({ docked, secret });
  latest.current = { docked, secret };

  const send = useCallback(
    async (text: string) => {
      const ask = (a: Omit<Asking, 'resolve'>) => new Promise<string | null>((resolve) => setAsking({ ...a, resolve }));
      const kept = () => new Error(KEPT_TO_EDIT);
      const { docked, secret } = latest.current;
      const credential = detectCredential(text);
      if (credential) {
        const choice = await ask({
          title: 'This looks like a credential',
          description: secret
            ? `This looks like ${credential.label}. Messages are saved in the conversation and read by the agent. The agent asked for the secret "${secret.name}": send it as that secret instead (stored encrypted; the agent gets only its name).`
            : `This looks like ${credential.label}. Messages are saved in the conversation and read by the agent. Send it anyway?`,
          choices: secret
            ? [
                { value: 'message', label: 'Send anyway' },
                { value: 'secret', label: 'Send as secret', primary: true },
              ]
            : [{ value: 'message', label: 'Send anyway', primary: true }],
        });
        if (choice === null) throw kept();
        if (choice === 'secret' && secret) return provideSecret(secret.id, text);
        return sendMessage(text);
      }
      const answers = docked ? readAsChoice(docked.questions, text) : null;
      if (docked && answers) {
        const choice = await ask({
          title: `Send as the answer to ${headerOf(docked)}?`,
          description: `"${text.trim()}" reads as "${valuesOf(answers)}". As a chat message, the question would no longer be pending.`,
          choices: [
            { value: 'message', label: 'Send as message' },
            { value: 'answer', label: 'Send as answer', primary: true },
          ],
        });
        if (choice === null) throw kept();
        if (choice === 'answer') return void (await queueAnswer(docked, answers));
      }
      return sendMessage(text);
    },
    [sendMessage, queueAnswer, provideSecret],
  );

  const settle = (choice: string | null) => {
    asking?.resolve(choice);
    setAsking(null);
  };
  const dialog = asking && (
    <ChoiceAlert
      open
      title={asking.title}
      description={asking.description}
      choices={asking.choices}
      cancelLabel="Keep editing"
      onChoose={settle}
      onCancel={() => settle(null)}
    />
  );
  return { send, dialog };
}
