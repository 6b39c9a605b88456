/** Tables owned by src/events/ (merged into the kysely Database in src/db/schema.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EventTables {}
