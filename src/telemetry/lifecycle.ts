/**
 * The SDK is started by the `--import` file, before the service's modules load; cli.ts ends it
 * when the command is done (for `serve`, after draining), so the last spans and metrics are
 * exported before the process exits (the SDK's timers do not keep it alive). The hook
 * lives on globalThis because the instrumentation file and the service may load this module under
 * two URLs (a source tree run through tsx, a compiled tree).
 */
const HOOK = Symbol.for("countersign.telemetry.shutdown");

type Holder = { [HOOK]?: () => Promise<void> };

export function onTelemetryShutdown(shutdown: () => Promise<void>): void {
  (globalThis as Holder)[HOOK] = shutdown;
}

/** Whether the `--import` file started an SDK in this process (its instrumentations are in place). */
export function telemetryStarted(): boolean {
  return (globalThis as Holder)[HOOK] !== undefined;
}

/** Flushes and stops the SDK when one was started; a no-op otherwise. Never rejects. */
export async function shutdownTelemetry(): Promise<void> {
  const holder = globalThis as Holder;
  const shutdown = holder[HOOK];
  delete holder[HOOK];
  await shutdown?.().catch(() => undefined);
}
