import * as z from 'zod';

export const SCOPES = [
  'operator.admin',
  'operator.read',
  'operator.write',
  'operator.questions',
  'operator.sessions.write',
  'agent.run',
  'agent.secrets',
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;
export const Role = z.enum(['operator', 'agent']);
export type Role = z.infer<typeof Role>;
