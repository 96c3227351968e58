import type { ComponentType } from 'react';
import type { KindId } from '../../../../answers/kinds/index.ts';
import type { QuestionItemRecord } from '../../../../answers/collect.ts';
import { LazyBoundary } from '../../../components/lazy-boundary.tsx';
import { lazyWithRetry } from '../../../lib/lazy-with-retry.ts';
import { OptionList } from './option-list.tsx';
import { OtherField } from './other-field.tsx';

export type KindControlProps = { recordId: string; item: QuestionItemRecord; locked: boolean; attempted: boolean };

/** Options over the Other field: a choice, an approval, a confirm and a link are answered this way (U4). */
function OptionsAndOther(props: KindControlProps) {
  return (
    <>
      <OptionList {...props} />
      <OtherField recordId={props.recordId} item={props.item} locked={props.locked} />
    </>
  );
}

// Q12: a typed field's control is a chunk of its own, so the first load carries none of it; until it arrives the
// Other field takes the answer as text (the gateway checks it either way).
const TypedInput = lazyWithRetry(() => import('./typed-input.tsx'), (m) => m.TypedInput);

function TypedInputControl(props: KindControlProps) {
  const text = <OtherField recordId={props.recordId} item={props.item} locked={props.locked} />;
  return (
    <LazyBoundary pending={text} failed={text}>
      <TypedInput {...props} />
    </LazyBoundary>
  );
}

/** Q12: each kind's control; a new kind fails to compile here until it has one. */
export const KIND_CONTROLS = {
  choice: OptionsAndOther,
  approval: OptionsAndOther,
  confirm: OptionsAndOther,
  link: OptionsAndOther,
  input: TypedInputControl,
} satisfies Record<KindId, ComponentType<KindControlProps>>;
