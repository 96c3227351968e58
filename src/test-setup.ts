// Component tests opt into jsdom per file (`// @vitest-environment jsdom`); matchers are shared.
import '@testing-library/jest-dom/vitest';

// findBy* and waitFor give up after 1 s by default: too little on a busy machine, where a render that is due can take
// longer. Their bound only limits how long a failing test waits; a passing one goes on as soon as the thing is there.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 10_000 });
}
