/**
 * Q12 at the edge: a protocol-1 connection gets every frame as protocol 1 has it, question kinds lowered to `choice`
 * (answers/kinds/lower.ts). Frames without a kind go out as they are, untouched and unparsed.
 */
import { lowerQuestionLists } from '../../answers/kinds/lower.ts';
import { textFrame, type WireFrame } from '../hub/wire.ts';

const MARKS = ['"kind":', '"input":'];

/**
 * The text of each unmasked frame in `buf`: one `textFrame`, or several the hub sends together (the events of one
 * commit, concatenated).
 */
function frameTexts(buf: Buffer): string[] {
  const texts: string[] = [];
  for (let at = 0; at < buf.length; ) {
    const len7 = buf[at + 1] & 0x7f;
    const head = len7 < 126 ? 2 : len7 === 126 ? 4 : 10;
    const length = len7 < 126 ? len7 : len7 === 126 ? buf.readUInt16BE(at + 2) : Number(buf.readBigUInt64BE(at + 2));
    texts.push(buf.toString('utf8', at + head, at + head + length));
    at += head + length;
  }
  return texts;
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
  const texts = frameTexts(out);
  const lowered = texts.map(lowerText);
  if (lowered.every((text, i) => text === texts[i])) return out;
  const frames = lowered.map(textFrame);
  return frames.length === 1 ? frames[0] : (Buffer.concat(frames) as WireFrame);
}
