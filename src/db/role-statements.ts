/**
 * The two NOLOGIN group roles the schema grants to (docs/audit.md "Database roles"), and what an
 * administrator runs to create them when the migrating user may not. One list, read by the
 * migration that creates them, by the refusal that prints the statements and by the test that
 * holds the docs to them.
 */
export const GROUP_ROLES = ["countersign_writer", "countersign_auditor"] as const;

export type GroupRole = (typeof GROUP_ROLES)[number];

/**
 * The statements, in order, that create `roles`. Nothing else is needed from an administrator: the
 * migrating user grants on the tables it creates, which needs no right on the roles themselves.
 */
export function groupRoleStatements(roles: readonly GroupRole[] = GROUP_ROLES): string[] {
  return roles.map((role) => `create role ${role} nologin;`);
}
