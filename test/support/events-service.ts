/**
 * A service on a fresh database that takes the platform's signed events (COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE),
 * with a co-signer simulator, for one describe block; and the policy the void and
 * confirmation suites share: at most 100 ETH a day from one wallet.
 */
import { eventKeys } from "./event-sender.js";
import { writeTempPem } from "./service-account.js";
import { serviceWithPolicy, type PolicyService } from "./service.js";

export type EventsService = PolicyService;

/** Started before the block's tests, stopped after them; the fields are set once started. */
export function serviceWithEvents(policy: string, options: { clock?: () => Date } = {}): EventsService {
  let keyFile: { path: string; remove(): void } | undefined;
  return serviceWithPolicy(
    policy,
    async () => {
      keyFile = writeTempPem((await eventKeys()).platform.publicKeyPem, "events-public.pem");
      return { env: { COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: keyFile.path }, ...options };
    },
    () => keyFile?.remove(),
  );
}

export const dailyLimitPolicy = (version: string) => `
version: "${version}"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: daily-limit
    decision: deny
    reason: At most 100 ETH a day from one wallet
    when: {">": [{"var": "velocity.daily_out.amountAfter"}, "100"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;
