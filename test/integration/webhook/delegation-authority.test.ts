/**
 * An EVM account delegation (EIP-7702) hands the wallet's account to a contract's code: on every
 * chain when its chainId is 0. The initiator names the contract (InitiateTransaction
 * `details.evmAccountDelegation.contractAddress`), and a vault that sponsors transfers needs its
 * delegations to the platform's contract signed, so a policy allows the kind for that contract
 * only, reading `tx.authorizations` (README, facts). The
 * delegation's own contract, chain and signer were not among `tx.authorizations` (only an
 * `evmTransaction`'s authorization list was), so such a policy signed a delegation to any contract.
 * Over HTTP against the real service.
 */
import { describe, expect, it } from "vitest";
import { HOT_WALLET, transactionName } from "../../support/bodies.js";
import { serviceWithPolicy } from "../../support/service.js";

const PLATFORM = "0x1111111111111111111111111111111111111111";
const ATTACKER = "0x2222222222222222222222222222222222222222";
const HOT_ETH = "0x8ba1f109551bd432803012645ac136ddd64dba72";

const POLICY = `
version: "delegation.1"
default: deny
rules:
  - id: platform-delegation
    decision: allow
    reason: a delegation to the platform's EIP-7702 contract on Ethereum
    when:
      and:
        - {"===": [{"var": "tx.kind"}, "evmAccountDelegation"]}
        - none:
            - {"var": "tx.authorizations"}
            - {"or": [{"!==": [{"var": "contractAddress"}, "${PLATFORM}"]}, {"!==": [{"var": "chainId"}, "1"]}]}
`;

describe("EVM account delegations: the delegated contract is a fact", () => {
  const suite = serviceWithPolicy(POLICY);

  const apiDelegation = (contract: string, chainId: string) => ({
    name: transactionName("deleg"),
    type: "TRANSACTION",
    subType: "EVM_ACCOUNT_DELEGATION",
    state: "AWAITING_SIGNATURE",
    network: "networks/ethereum-mainnet",
    request: { sourceWallet: HOT_WALLET, initiator: "users/ops@treasury.example" },
    evmAccountDelegation: { signerAddress: { value: HOT_ETH }, contractAddress: { value: contract }, chainId, nonce: "4" },
    transfers: [],
  });

  it("signs the delegation to the platform's contract on chain 1 (the control), with its authorization as a fact", async () => {
    const body = apiDelegation(PLATFORM, "1");
    expect((await suite.cosigner.deliver(body)).verdict).toBe("signed");
    const row = await suite.tdb.handle.db.selectFrom("decisions").select("facts").where("transaction_name", "=", body.name).executeTakeFirstOrThrow();
    expect((row.facts as { tx: { authorizations: unknown[] } }[])[0]!.tx.authorizations).toEqual([{ signer: HOT_ETH, contractAddress: PLATFORM, chainId: "1", nonce: "4" }]);
  });

  it.each([
    ["to another contract, as the API returns it", () => apiDelegation(ATTACKER, "1")],
    ["to the platform's contract on every chain (chainId 0)", () => apiDelegation(PLATFORM, "0")],
    [
      "to another contract, in the reference shape",
      () => ({
        name: transactionName("deleg-ref"),
        details: { evmAccountDelegation: { fromAddress: HOT_ETH, contractAddress: ATTACKER, chainId: "1" } },
      }),
    ],
    [
      "that names no contract at all (only its subType)",
      () => ({ name: transactionName("deleg-bare"), type: "TRANSACTION", subType: "EVM_ACCOUNT_DELEGATION", network: "networks/ethereum-mainnet", transfers: [] }),
    ],
  ])("a delegation %s is not signed", async (_what, body) => {
    const delivery = await suite.cosigner.deliver(body());
    expect(delivery.body).toMatchObject({ signTransaction: false });
    expect(delivery.verdict).toBe("canceled");
  });
});
