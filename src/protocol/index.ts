export * from './version.ts';
export * from './errors.ts';
export * from './scopes.ts';
export * from './question.ts';
export * from './session.ts';
export * from './frames.ts';
export * from './methods.ts';
export * from './events.ts';
