/**
 * One check `GET /readyz` runs: the database, its schema, its clock, the address-book sync, the
 * window claims each contribute one, from wherever they are kept, and the route knows none of them.
 */
export interface ReadinessCheck {
  name: string;
  /** Null when ready, else why not (safe to show). */
  check(): Promise<string | null>;
}
