/**
 * Q12: an `input` question's value checked against its spec, as MCP elicitation's JSON Schema words it. A value is
 * returned in one spelling per type (a number as written, `true` / `false`, a date as given); a refusal names the rule.
 */
import type { InputSpec } from '../../protocol/rules.ts';

export type InputVerdict = { ok: true; value: string } | { ok: false; problem: string };

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const TRUE_WORDS = ['true', 'yes', 'y'];
const FALSE_WORDS = ['false', 'no', 'n'];

function realDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function bounds(spec: InputSpec, n: number): string | undefined {
  if (spec.minimum !== undefined && n < spec.minimum) return `must be at least ${spec.minimum} (minimum)`;
  if (spec.maximum !== undefined && n > spec.maximum) return `must be at most ${spec.maximum} (maximum)`;
  return undefined;
}

function lengths(spec: InputSpec, text: string): string | undefined {
  const length = Array.from(text).length;
  if (spec.minLength !== undefined && length < spec.minLength) return `must be at least ${spec.minLength} characters (minLength)`;
  if (spec.maxLength !== undefined && length > spec.maxLength) return `must be at most ${spec.maxLength} characters (maxLength)`;
  return undefined;
}

const fail = (problem: string): InputVerdict => ({ ok: false, problem });

/** Checks one trimmed, non-blank value against `spec`. */
export function checkInput(spec: InputSpec, text: string): InputVerdict {
  if (spec.enum?.length) {
    const named = spec.enum.find((v) => v.toLowerCase() === text.toLowerCase());
    return named === undefined ? fail(`must be one of ${spec.enum.join(', ')} (enum)`) : { ok: true, value: named };
  }
  switch (spec.type) {
    case 'number':
    case 'integer': {
      const integer = spec.type === 'integer';
      if (!(integer ? INTEGER : NUMBER).test(text)) return fail(integer ? 'must be a whole number (integer)' : 'must be a number (number)');
      const problem = bounds(spec, Number(text));
      return problem ? fail(problem) : { ok: true, value: text.replace(/^\+/, '') };
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      if (TRUE_WORDS.includes(lower)) return { ok: true, value: 'true' };
      if (FALSE_WORDS.includes(lower)) return { ok: true, value: 'false' };
      return fail('must be yes or no (boolean)');
    }
    case 'date':
      return realDate(text) ? { ok: true, value: text } : fail('must be a date like 2026-12-31 (date)');
    case 'date-time':
      return DATE_TIME.test(text) && realDate(text.slice(0, 10)) && !Number.isNaN(Date.parse(text))
        ? { ok: true, value: text }
        : fail('must be a date and time like 2026-12-31T09:30:00Z (date-time)');
    case 'email':
      return EMAIL.test(text) ? lengthChecked(spec, text) : fail('must be an email address (email)');
    case 'uri':
      return /^[a-z][a-z0-9+.-]*:\S+$/i.test(text) && URL.canParse(text) ? lengthChecked(spec, text) : fail('must be an address like https://example.com (uri)');
    default:
      return lengthChecked(spec, text);
  }
}

function lengthChecked(spec: InputSpec, text: string): InputVerdict {
  const problem = lengths(spec, text);
  return problem ? fail(problem) : { ok: true, value: text };
}
