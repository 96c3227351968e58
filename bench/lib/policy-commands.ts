/**
 * G11 bench: shell commands an agent sends, all different from each other (a cache of recent results must not be what
 * is measured), of the shapes seen in practice: single commands, pipelines, lists, loops, redirections, wrappers. Some
 * meet the bench policy's allow and deny rules (bench/policy.ts `benchRules`), most meet none.
 */
export function distinctCommands(count: number, salt = 0): string[] {
  const out: string[] = [];
  for (let k = 0; out.length < count; k++) {
    const i = k + salt * 100_000;
    const shape = SHAPES[k % SHAPES.length];
    out.push(shape(i));
  }
  return out;
}

const SHAPES: ((i: number) => string)[] = [
  (i) => `npm run test src/mod-${i}.test.ts`,
  (i) => `git log --oneline -n ${i % 50} -- src/file-${i}.ts`,
  (i) => `ls -la dir-${i} | grep -v node_modules | wc -l`,
  (i) => `cd pkg-${i} && make build && ./run --port ${3000 + (i % 1000)}`,
  (i) => `rg -n "TODO-${i}" src/ 2>/dev/null | head -20`,
  (i) => `tool-${4 * (1 + (i % 240))} run step-${i}`,
  (i) => `danger-${4 * (i % 240) + 1} --force item-${i}`,
  (i) => `for f in src/*.ts; do echo "$f-${i}"; done`,
  (i) => `python3 -c 'print(${i} * 2)'`,
  (i) => `echo "build ${i}" > out-${i}.log`,
  (i) => `timeout 30 npx tsc --noEmit -p tsconfig-${i}.json`,
  (i) => `git diff HEAD~${1 + (i % 9)} --stat && git status --short # check ${i}`,
];
