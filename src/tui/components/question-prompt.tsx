import { Box, Text } from 'ink';
import { cutDetail } from '../../answers/detail-lines.ts';
import { terminalLine, terminalText } from '../../lib/terminal-text.ts';
import { splitKeys } from './key-burst.ts';
import { useKeys } from './use-keys.ts';
import { erased, typedText } from './line-edit.ts';
import type { QuestionRecord } from '../../protocol/index.ts';
import { itemDraft as draftOfItem, otherChanged, otherLeft, otherSubmitted, promptHint, promptKey, type PromptDraft, type PromptEffect, type PromptStep } from '../prompt/prompt-model.ts';
import { promptToggles } from '../prompt/kind-rows.ts';
import { readingHint, readingKey } from '../prompt/read-only.ts';
import { OptionRows } from './option-rows.tsx';
import { TextInput } from './text-input.tsx';
import { TimeLeft } from './time-left.tsx';
import { RouteLine } from './route-line.tsx';
import type { RouteWords } from '../state/route-words.ts';

type Props = {
  record: QuestionRecord;
  /** Where this request stands among the pending ones (V6 `‹ 1/2 ›`). */
  index: number;
  count: number;
  draft: PromptDraft;
  /** The draft as stored right now: keys of one burst arrive before the next render. */
  getDraft: () => PromptDraft;
  onDraft: (draft: PromptDraft) => void;
  onEffect: (effect: PromptEffect) => void;
  /** E9: the routed question in words (who it waits for, who is next), once routing.status has said. */
  routeWords?: RouteWords;
  /** E3: whether this identity may answer it (notified so far, or an admin); anyone else reads it without `a`. */
  mayAnswer?: boolean;
};

/** X2: how many lines of a detail the prompt shows; the rest is `… N more lines`. */
export const DETAIL_LINES = 10;

/** X2: the detail as indented lines (tabs as spaces, each cut at the edge), cleaned for the terminal, under the question. */
function DetailLines({ detail }: { detail: string | undefined }) {
  if (!detail) return null;
  return (
    <Box flexDirection="column" paddingLeft={2} marginY={0}>
      {cutDetail(detail, DETAIL_LINES)
        .split('\n')
        .map((line, i) => (
          <Text key={i} dimColor wrap="truncate-end">
            {terminalText(line.replace(/\r$/, ''), { tabSize: 4 }) || ' '}
          </Text>
        ))}
    </Box>
  );
}


/** V2: the prompt in place of the composer, one question at a time. */
export function QuestionPrompt({ record, index, count, draft, getDraft, onDraft, onEffect, routeWords, mayAnswer = true }: Props) {
  const item = record.questions[Math.min(draft.step, record.questions.length - 1)];
  const itemDraft = draftOfItem(draft, item);
  const apply = ({ draft: next, effect }: PromptStep) => {
    onDraft(next);
    if (effect && !(effect.kind === 'ack' && !mayAnswer)) onEffect(effect);
  };
  useKeys(
    (input, key) => {
      // A burst that opens Other… and goes on typing (`\rhello\r` from a pty) gives the rest to the field, in order.
      for (const k of splitKeys(input, key)) {
        const now = getDraft();
        // E3: someone it does not wait for only reads it (and moves about); nothing they press answers.
        if (!mayAnswer) apply(readingKey(record.questions.length, now, { ...k.key, input: k.input }));
        else if (!now.editingOther) apply(promptKey(record, now, { ...k.key, input: k.input }));
        else if (k.key.return) apply(otherSubmitted(record, now));
        else {
          // The step this key lands in, not the rendered one: a burst may have crossed to the next question. An erase
          // in the burst erases, in order, as the field itself would (its cursor is at the end).
          const other = draftOfItem(now, record.questions[now.step]).other;
          const erase = erased(other, other.length, k.input, k.key);
          if (erase) onDraft(otherChanged(record, now, erase.value));
          else if (k.input && !k.key.ctrl && !k.key.meta && typedText(k.input)) onDraft(otherChanged(record, now, other + typedText(k.input)));
        }
      }
    },
    { isActive: !draft.editingOther || !mayAnswer },
  );
  const several = record.questions.length > 1;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      {/* Narrow terminals wrap the header row between its parts, never inside `Question 1 of 2` or `14:32 left` (V2, V3). */}
      <Box flexWrap="wrap" columnGap={1}>
        {count > 1 ? <Box flexShrink={0}><Text color="cyan">‹ {index + 1}/{count} ›</Text></Box> : null}
        <Box flexShrink={0}><Text bold>{terminalLine(item.header)}</Text></Box>
        {several ? <Box flexShrink={0}><Text dimColor>· Question {draft.step + 1} of {record.questions.length}</Text></Box> : null}
        {record.mode === 'async' ? <Box flexShrink={0}><Text dimColor>· async</Text></Box> : null}
        {record.expiresAtMs !== null ? <Box flexGrow={1} flexShrink={0} justifyContent="flex-end"><TimeLeft expiresAtMs={record.expiresAtMs} /></Box> : null}
      </Box>
      {record.route ? <RouteLine route={record.route} words={routeWords} mayAnswer={mayAnswer} /> : null}
      <Text>{terminalText(item.question, { tabSize: 4 })}</Text>
      <DetailLines detail={item.detail} />
      {(item as { url?: string }).url ? <Text color="blue">Open link: {terminalLine((item as { url?: string }).url!)}</Text> : null}
      <OptionRows item={item} draft={itemDraft} cursor={draft.cursor} editingOther={draft.editingOther} readOnly={!mayAnswer} />
      {draft.editingOther && mayAnswer ? (
        <Box>
          <Text color="cyan">  ✎ </Text>
          <TextInput
            value={itemDraft.other}
            onChange={(text) => onDraft(otherChanged(record, getDraft(), text))}
            onSubmit={() => apply(otherSubmitted(record, getDraft()))}
            onEscape={() => onDraft(otherLeft(getDraft()))}
            placeholder="your answer · Enter sends · Esc back to the options"
          />
        </Box>
      ) : null}
      {draft.confirm ? (
        <Text color="yellow">
          ⚠ {terminalText(draft.confirm.warning)} <Text bold>y</Text>/Enter send · <Text bold>n</Text>/Esc edit
        </Text>
      ) : null}
      {draft.problem ? <Text color="red">{terminalText(draft.problem)}</Text> : null}
      <Text dimColor>{mayAnswer ? promptHint(promptToggles(item), draft.step, count) : readingHint(record.questions.length, count)}</Text>
    </Box>
  );
}
