// Component tests opt into jsdom per file (`// @vitest-environment jsdom`); matchers are shared.
import '@testing-library/jest-dom/vitest';
