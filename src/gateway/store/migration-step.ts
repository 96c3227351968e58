/**
 * One schema step: `id` names it for people and tests (the database counts steps, it stores no ids), `sql` is run as is.
 * A step is never edited once released, and the list of steps only grows at its end (migration-steps.test.ts holds both).
 */
export interface MigrationStep {
  readonly id: string;
  readonly sql: string;
}
