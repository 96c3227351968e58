/** How a `choice` question reads text: a plain-text reply (PT1, PT2) and an async reply's body (Q9). */
import type { KindItem } from './kind.ts';
import { optionFor } from './labels.ts';

/** PT1: option n, an option's label, or else the whole text as the free-text answer. */
export function readSingle(item: KindItem, text: string): string[] {
  const t = text.trim();
  return t ? [optionFor(item, t) ?? t] : [];
}

/**
 * PT2: comma-separated parts, each an option number or label; the rest kept together as one free-text value
 * beside the chosen options. A label that itself holds commas is still taken whole (longest match first).
 */
export function readMulti(item: KindItem, text: string): string[] {
  const parts = text.split(',');
  const chosen: string[] = [];
  const free: string[] = [];
  for (let i = 0; i < parts.length; ) {
    let taken = false;
    for (let j = parts.length; j > i; j--) {
      const option = optionFor(item, parts.slice(i, j).join(','));
      if (option) {
        if (!chosen.includes(option)) chosen.push(option);
        i = j;
        taken = true;
        break;
      }
    }
    if (taken) continue;
    if (parts[i].trim()) free.push(parts[i].trim());
    i++;
  }
  return free.length ? [...chosen, free.join(', ')] : chosen;
}

/**
 * Q9: reads a multi-select answer left to right, keeping the written order: at each comma boundary the longest option
 * label that ends at a comma (or the end) is a choice; runs of anything else are free text, commas and all.
 */
export function splitMultiBody(item: KindItem, body: string): string[] {
  // Longest first, because labels may hold commas or start with another label.
  const labels = item.options.map((o) => o.label).sort((a, b) => b.length - a.length);
  const values: string[] = [];
  let run: { from: number; to: number } | null = null;
  const endRun = () => {
    if (run) values.push(body.slice(run.from, run.to).trim());
    run = null;
  };
  let at = 0;
  while (at <= body.length) {
    while (at < body.length && /\s/.test(body[at])) at++;
    const label = labels.find(
      (l) => body.slice(at, at + l.length).toLowerCase() === l.toLowerCase() && /^\s*(,|$)/.test(body.slice(at + l.length)),
    );
    const comma = body.indexOf(',', label ? at + label.length : at);
    const end = comma === -1 ? body.length : comma;
    if (label) {
      endRun();
      values.push(label);
    } else if (body.slice(at, end).trim()) {
      if (run) run.to = end;
      else run = { from: at, to: end };
    }
    if (comma === -1) break;
    at = comma + 1;
  }
  endRun();
  return values.filter((v) => v.length > 0);
}
