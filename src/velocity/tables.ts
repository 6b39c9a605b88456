/** Tables owned by src/velocity/ (merged into the kysely Database in src/db/schema.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface VelocityTables {}
