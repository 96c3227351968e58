/**
 * Q12 at the edge: a protocol-1 connection gets every frame as protocol 1 has it, question kinds lowered to `choice`
 * (answers/kinds/lower.ts). Frames without a kind go out as they are, untouched and unparsed.
 */
import { lowerQuestionLists } from '../../answers/kinds/lower.ts';
import { textFrame, type WireFrame } from '../hub/wire.ts';

const MARKS = ['"kind":', '"input":'];

/** The text inside one unmasked frame made by `textFrame`. */
function frameText(frame: WireFrame): string {
  const len = frame[1] & 0x7f;
  const head = len < 126 ? 2 : len === 126 ? 4 : 10;
  return frame.toString('utf8', head);
}

function lowerText(text: string): string {
  const value: unknown = JSON.parse(text);
  const lowered = lowerQuestionLists(value);
  return lowered === value ? text : JSON.stringify(lowered);
}

/** The frame a protocol-1 client is sent for `out`. */
export function forProtocolOne(out: string | WireFrame): string | WireFrame {
  if (typeof out === 'string') return MARKS.some((m) => out.includes(m)) ? lowerText(out) : out;
  if (!MARKS.some((m) => out.includes(m))) return out;
  const text = frameText(out);
  const lowered = lowerText(text);
  return lowered === text ? out : textFrame(lowered);
}
