/**
 * The group roles exist before any migration runs. Every table, view and function of the schema is
 * granted to them, so a schema built without them would leave the service's login without rights
 * and the public schema unchecked. Roles belong to the whole cluster: a migrating user that may
 * create roles (superuser or CREATEROLE) creates the missing ones; one that may not is refused,
 * before anything is changed, with the statements an administrator runs first.
 */
import { sql } from "kysely";
import type { AnyDb } from "./any-db.js";
import { GROUP_ROLES, groupRoleStatements, type GroupRole } from "./role-statements.js";

/** SQLSTATEs of a role created meanwhile by another database's migration on the same cluster. */
const CREATED_MEANWHILE = new Set(["42710", "23505"]);

export class GroupRolesMissing extends Error {
  readonly code = "group_roles_missing";
  readonly statements: string[];
  constructor(
    readonly user: string,
    readonly missing: GroupRole[],
  ) {
    const statements = groupRoleStatements(missing);
    super(
      `the roles ${missing.join(", ")} do not exist and ${user} may not create them (neither superuser nor CREATEROLE); nothing was changed. ` +
        `As a superuser or a role with CREATEROLE run:\n${statements.map((s) => `  ${s}`).join("\n")}\nthen migrate again`,
    );
    this.name = "GroupRolesMissing";
    this.statements = statements;
  }
}

interface RoleState {
  user: string;
  mayCreateRoles: boolean;
  missing: GroupRole[];
}

async function roleState(db: AnyDb): Promise<RoleState> {
  const { rows } = await sql<{ user: string; may_create_roles: boolean; present: string[] }>`
    select current_user::text as user,
      (select rolsuper or rolcreaterole from pg_roles where rolname = current_user) as may_create_roles,
      array(select rolname::text from pg_roles where rolname like 'countersign\_%') as present`.execute(db);
  const row = rows[0]!;
  return { user: row.user, mayCreateRoles: row.may_create_roles, missing: GROUP_ROLES.filter((r) => !row.present.includes(r)) };
}

/** Creates the missing group roles, or throws GroupRolesMissing when the migrating user may not. */
export async function ensureGroupRoles(db: AnyDb): Promise<void> {
  const { user, mayCreateRoles, missing } = await roleState(db);
  if (missing.length === 0) return;
  if (!mayCreateRoles) throw new GroupRolesMissing(user, missing);
  for (const statement of groupRoleStatements(missing)) {
    try {
      await sql.raw(statement).execute(db);
    } catch (error) {
      if (!CREATED_MEANWHILE.has((error as { code?: string }).code ?? "")) throw error;
    }
  }
}
