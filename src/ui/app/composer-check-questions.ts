import type { Answers, QuestionRecord, SecretRequestRecord } from '../../protocol/index.ts';
import { detectCredential, messageAsSecretOffer, messageCredentialWarning } from '../../answers/credentials.ts';
import { readAsChoice } from '../../answers/plain-text.ts';
import { recordWithChoosableOffers } from '../../answers/kinds/approval-offers.ts';
import type { AlertChoice } from '../components/ui/alert-dialog.tsx';

// U8: an answer read from a composer message goes into the outbox as the dock's would (its Q9 reply).
export { queueAsyncAnswer } from '../features/questions/api/submit-answer.ts';

/** What to ask the person about a message before it leaves, or null to send it as it is. */
export type ComposerQuestion = {
  kind: 'credential' | 'answer';
  title: string;
  description: string;
  choices: AlertChoice<string>[];
  /** For `answer`: what the message answers the docked question with. */
  answers?: Answers;
};

const headerOf = (record: QuestionRecord) => record.questions[0].header || record.questions[0].question;
const valuesOf = (answers: Answers) => Object.values(answers).flat().join(', ');

/**
 * W3 and U8 for the composer: a credential-shaped text asks first (and may go as the pending secret instead); a reply
 * like `2` or an option's label while one async question waits asks whether it is that question's answer. The reply is
 * read against the options the dock shows an identity holding `scopes` (G5), so its numbers match what the person sees.
 */
export function composerQuestion(
  text: string,
  docked: QuestionRecord | undefined,
  secret: Pick<SecretRequestRecord, 'name'> | undefined,
  scopes: readonly string[] | null,
): ComposerQuestion | null {
  const credential = detectCredential(text);
  if (credential)
    return {
      kind: 'credential',
      title: 'This looks like a credential',
      description: secret ? messageAsSecretOffer(credential, secret.name) : messageCredentialWarning(credential),
      choices: secret
        ? [
            { value: 'message', label: 'Send anyway' },
            { value: 'secret', label: 'Send as secret', primary: true },
          ]
        : [{ value: 'message', label: 'Send anyway', primary: true }],
    };
  const answers = docked ? readAsChoice(recordWithChoosableOffers(docked, scopes).questions, text) : null;
  if (!docked || !answers) return null;
  return {
    kind: 'answer',
    title: `Send as the answer to ${headerOf(docked)}?`,
    description: `"${text.trim()}" reads as "${valuesOf(answers)}". As a chat message, the question would no longer be pending.`,
    choices: [
      { value: 'message', label: 'Send as message' },
      { value: 'answer', label: 'Send as answer', primary: true },
    ],
    answers,
  };
}
