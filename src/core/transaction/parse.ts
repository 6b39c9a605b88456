/**
 * parseTransaction: a webhook body in any of the three accepted shapes (docs/interface.md section 1)
 * to the Transaction countersign evaluates. Never throws; a body that is not a transaction is
 * NOT_A_TRANSACTION, a transaction with malformed or contradictory fields is INVALID_TRANSACTION.
 *
 * The model, whatever the shape: the kind the markers claim (kind.ts), the transfers (from
 * `details.*`, `transfers[]` or a Stellar transaction's operations), and the payloads — every field
 * the classification table (field-classes.ts) names as one, every field it does not classify, and
 * whatever the chain objects do beyond the transfers. Any payload makes the kind `unknown`.
 */
import { AppError, err, ok, type Result } from "../errors.js";
import { fromApi } from "./api-shape.js";
import { networkId } from "../chains/assets.js";
import { canonicalAccountOrNull, canonicalAssetOrNull } from "../chains/canonical.js";
import { chainAgreesWithNetworks } from "../chains/chain-ids.js";
import { chainObjectPayloads } from "../chains/chain-objects.js";
import { statedFee } from "../chains/fees.js";
import { accountFamily, DELEGATION_FAMILY } from "../chains/registry.js";
import { misspeltAccount } from "../chains/spelling.js";
import { qualifyWallet, vaultOf } from "./endpoint.js";
import type { AccountFamily } from "./endpoint-at.js";
import { scanFields } from "./fields.js";
import { check, invalidAt } from "./issues.js";
import { claimedKind, DELEGATION_SUBTYPE } from "./kind.js";
import { statedMemo } from "./memo.js";
import { detailsKind, fromDetails } from "./reference-shape.js";
import { TRANSACTION_NAME } from "./resource-names.js";
import { apiDelegation, commonFields, evmTransaction, referenceDelegation, tokenAllowances, type CommonFields } from "./schemas.js";
import type { ShapeContext, ShapeResult } from "./shape.js";
import { at, isRecord } from "./transfer.js";
import type { Authorization, ChainSender, ChangeOutput, TokenAllowance, Transaction, Transfer } from "./types.js";

export function parseTransaction(body: unknown): Result<Transaction, AppError> {
  const located = locate(body);
  if (!located.ok) return located;
  const { snapshot, path } = located.value;
  const name = typeof snapshot.name === "string" ? TRANSACTION_NAME.exec(snapshot.name) : null;
  if (name?.[1] === undefined || name[2] === undefined) {
    return err(notATransaction(`${at(path, "name")}: must be vaults/{vault_id}/transactions/{transaction_id}`));
  }
  const vault = `vaults/${name[1]}`;
  const common = check(commonFields, snapshot, path);
  if (!common.ok) return common;
  const sourceWallet = requestSourceWallet(common.value, vault, path);
  if (!sourceWallet.ok) return sourceWallet;
  const ctx: ShapeContext = { vault, network: common.value.network ?? null, sourceWallet: sourceWallet.value, path };
  const model = readModel(snapshot, common.value, ctx);
  if (!model.ok) return model;
  const network = transactionNetwork(common.value.network ?? null, model.value.shape.network, path);
  if (!network.ok) return network;
  const onNetwork = transfersOnNetwork(model.value.shape.transfers, network.value, path);
  if (!onNetwork.ok) return onNetwork;
  const onChain = chainAgreesWithNetworks(snapshot, namedNetworks(network.value, model.value.shape.transfers), path);
  if (!onChain.ok) return onChain;
  const stated = statedMemo(snapshot, path);
  if (!stated.ok) return stated;
  const fee = statedFee(snapshot, network.value ?? transfersNetwork(model.value.shape.transfers), path, model.value.shape.envelopeFee);
  if (!fee.ok) return fee;
  return ok({
    name: name[0],
    vault,
    id: name[2],
    kind: model.value.payloads.length > 0 ? "unknown" : model.value.shape.kind,
    type: common.value.type ?? null,
    subType: common.value.subType ?? null,
    state: common.value.state ?? null,
    network: network.value,
    note: common.value.note ?? null,
    externalId: common.value.externalId ?? common.value.request?.externalId ?? null,
    requestId: common.value.requestId ?? null,
    initiator: common.value.request?.initiator ?? null,
    designatedSigners: [...(common.value.designatedSigners ?? [])],
    sourceWallet: sourceWallet.value,
    transfers: model.value.shape.transfers,
    payloads: model.value.payloads,
    tokenAllowances: model.value.tokenAllowances,
    authorizations: model.value.authorizations,
    changeOutputs: model.value.changeOutputs,
    sender: model.value.sender,
    btcInputs: model.value.btcInputs,
    memo: model.value.shape.envelopeMemo !== undefined ? model.value.shape.envelopeMemo : stated.value,
    fee: fee.value,
    snapshot,
  });
}

interface Model {
  shape: ShapeResult;
  payloads: string[];
  changeOutputs: ChangeOutput[];
  sender: ChainSender | null;
  btcInputs: ChangeOutput[];
  tokenAllowances: TokenAllowance[];
  authorizations: Authorization[];
}

function readModel(snapshot: Record<string, unknown>, common: CommonFields, ctx: ShapeContext): Result<Model, AppError> {
  const details = common.details ?? null;
  const key = details === null ? ok(null) : detailsKind(details, ctx.path);
  if (!key.ok) return key;
  const markers = {
    type: common.type ?? null,
    subType: common.subType ?? null,
    network: common.network ?? null,
    detailsKind: key.value,
    hasDetails: details !== null,
  };
  const claimed = claimedKind(snapshot, markers, ctx.path);
  if (!claimed.ok) return claimed;
  const shape = fromShape(snapshot, common, details, key.value, claimed.value.kind, ctx);
  if (!shape.ok) return shape;
  const chain = chainObjectPayloads(snapshot, shape.value.transfers, ctx.network === null ? null : networkId(ctx.network), ctx.path);
  if (!chain.ok) return chain;
  const extras = allowancesAndAuthorizations(snapshot, details, markers.subType === DELEGATION_SUBTYPE, ctx.path, ctx.network ?? transfersNetwork(shape.value.transfers));
  if (!extras.ok) return extras;
  const payloads = new Set([...scanFields(snapshot).payloads, ...claimed.value.payloads, ...shape.value.payloads, ...chain.value.payloads]);
  const transferKind = shape.value.kind === "assetTransfer" || shape.value.kind === "stellarTransaction";
  if (transferKind && payloads.size === 0 && shape.value.transfers.length === 0) {
    // A transfer kind that moves nothing the body shows: what would be signed is not described.
    return err(invalidAt(at(ctx.path, listingField(snapshot, details)), "must list at least one transfer"));
  }
  return ok({
    shape: shape.value,
    payloads: [...payloads].sort(),
    changeOutputs: chain.value.changeOutputs,
    sender: chain.value.sender,
    btcInputs: chain.value.btcInputs,
    ...extras.value,
  });
}

/** Where a transaction of a transfer kind lists what it moves. */
const listingField = (snapshot: Record<string, unknown>, details: Record<string, unknown> | null): string =>
  details !== null ? "details" : snapshot.stellarTransaction != null ? "stellarTransaction.operations" : "transfers";

function fromShape(
  snapshot: Record<string, unknown>,
  common: CommonFields,
  details: Record<string, unknown> | null,
  key: string | null,
  kind: Transaction["kind"],
  ctx: ShapeContext,
): Result<ShapeResult, AppError> {
  const transfers = common.transfers ?? [];
  if (details === null) return fromApi(snapshot, kind, transfers, ctx);
  // Both shapes at once: the transfers evaluated and the ones signed could differ.
  if (transfers.length > 0) return err(invalidAt(at(ctx.path, "transfers"), "must not be given beside details"));
  return fromDetails(details, key, ctx);
}

/** The transaction object itself, unwrapped from `{"transaction": {...}}` when so delivered. */
function locate(body: unknown): Result<{ snapshot: Record<string, unknown>; path: string }, AppError> {
  if (!isRecord(body)) return err(notATransaction("the body must be a JSON object"));
  if (Object.hasOwn(body, "name")) {
    // A named body that also wraps another transaction: which one is to be signed is unclear.
    if (body.transaction != null) return err(notATransaction("the body has both name and transaction"));
    return ok({ snapshot: body, path: "" });
  }
  if (isRecord(body.transaction)) return ok({ snapshot: body.transaction, path: "transaction" });
  return err(notATransaction("name: must be vaults/{vault_id}/transactions/{transaction_id}"));
}

function requestSourceWallet(common: CommonFields, vault: string, path: string): Result<string | null, AppError> {
  const given = common.request?.sourceWallet;
  if (given == null) return ok(null);
  const wallet = qualifyWallet(given, vault);
  // A transaction spends from its own vault: a wallet of another vault cannot be its source.
  return wallet === null || vaultOf(wallet) !== vault ? err(invalidAt(at(at(path, "request"), "sourceWallet"), "must be a wallet of the transaction's vault")) : ok(wallet);
}

/** `tx.network` as received; a Stellar transaction's own network must be the same one. */
function transactionNetwork(given: string | null, fromShapeNetwork: string | null, path: string): Result<string | null, AppError> {
  if (given !== null && fromShapeNetwork !== null && networkId(given) !== networkId(fromShapeNetwork)) {
    return err(invalidAt(at(path, "network"), "disagrees with the Stellar transaction's network"));
  }
  return ok(given ?? fromShapeNetwork);
}

/**
 * A transfer whose asset names another network than the transaction's (`assets/native.polygon-mainnet`
 * in an Ethereum transaction) would be evaluated as the cheaper coin while the chain moves the other.
 */
function transfersOnNetwork(transfers: readonly Transfer[], network: string | null, path: string): Result<void, AppError> {
  if (network === null) return ok(undefined);
  const wrong = transfers.find((t) => t.network !== null && t.network !== networkId(network));
  return wrong === undefined ? ok(undefined) : err(invalidAt(at(path, "network"), `disagrees with the network of transfer ${wrong.index}'s asset`));
}

/** Every network the body names: its own and its transfers' assets' (ids without `networks/`). */
function namedNetworks(network: string | null, transfers: readonly Transfer[]): string[] {
  const named = transfers.map((t) => t.network).filter((n): n is string => n !== null);
  return network === null ? named : [networkId(network), ...named];
}

/** The one network every transfer's asset names, for a transaction that names none (shape 1); else null. */
function transfersNetwork(transfers: readonly Transfer[]): string | null {
  const networks = new Set(transfers.map((t) => t.network));
  const [only] = networks;
  return networks.size === 1 && only !== undefined ? only : null;
}

function allowancesAndAuthorizations(
  snapshot: Record<string, unknown>,
  details: Record<string, unknown> | null,
  delegationSubType: boolean,
  path: string,
  network: string | null,
): Result<{ tokenAllowances: TokenAllowance[]; authorizations: Authorization[] }, AppError> {
  const allowances = check(tokenAllowances, snapshot.tokenAllowances, at(path, "tokenAllowances"));
  if (!allowances.ok) return allowances;
  let authorizations: Authorization[] = [];
  if (snapshot.evmTransaction != null) {
    const evm = check(evmTransaction, snapshot.evmTransaction, at(path, "evmTransaction"));
    if (!evm.ok) return evm;
    const listPath = at(at(at(path, "evmTransaction"), "authorizationDetails"), "authorizationList");
    const list = evm.value.authorizationDetails?.authorizationList ?? [];
    for (const [i, a] of list.entries()) {
      const spelt = accountsSpelt({ signer: a.signer?.value, contractAddress: a.contractAddress?.value }, DELEGATION_FAMILY, `${listPath}[${i}]`, ".value");
      if (!spelt.ok) return spelt;
    }
    authorizations = list.map((a) => ({
      signer: canonicalAccountOrNull(a.signer?.value),
      contractAddress: canonicalAccountOrNull(a.contractAddress?.value),
      chainId: a.chainId ?? null,
      nonce: a.nonce ?? null,
    }));
  }
  const delegations = delegationAuthorizations(snapshot, details, delegationSubType, path);
  if (!delegations.ok) return delegations;
  authorizations = [...authorizations, ...delegations.value];
  const allowanceList = allowances.value ?? [];
  for (const [i, a] of allowanceList.entries()) {
    // The asset's network, else the transaction's: an allowance of an asset whose id names no
    // network (`assets/USDC`), or of none, on an Ethereum transaction is an EVM approval too (its spender spelt 0X… passed a deny rule naming it).
    const family = accountFamily(a.asset ?? "", network);
    const accounts = { approverAddress: a.approverAddress?.value, spenderAddress: a.spenderAddress?.value };
    const holder = `${at(path, "tokenAllowances")}[${i}]`;
    const spelt = accountsSpelt(accounts, family, holder, ".value");
    if (!spelt.ok) return spelt;
  }
  return ok({
    tokenAllowances: allowanceList.map((a) => ({
      approver: canonicalAccountOrNull(a.approverAddress?.value),
      spender: canonicalAccountOrNull(a.spenderAddress?.value),
      asset: canonicalAssetOrNull(a.asset),
      amount: a.amount ?? null,
    })),
    authorizations,
  });
}

/**
 * The accounts an authorization or a token allowance names (a delegation's signer and contract, an
 * allowance's approver and spender), which are facts that rules compare: written as their network's
 * family compares them (endpoint-at.ts misspeltAccount), or refused (400); the facts then hold
 * them in canonical spelling (src/core/chains/canonical.ts), as a rule's literals are read. Their clients also read
 * other spellings (`0X…` or an ENS name on EVM, `0xbad` on Sui or Aptos, `0x` and 20 bytes on
 * Tron, a public key in hex on Substrate) as the account, which a deny rule naming it by its own
 * spelling would not see.
 */
function accountsSpelt(fields: Record<string, string | null | undefined>, family: AccountFamily, holder: string, leaf: string): Result<null, AppError> {
  for (const [field, value] of Object.entries(fields)) {
    const issue = value == null ? null : misspeltAccount(value, family);
    if (issue !== null) return err(invalidAt(`${at(holder, field)}${leaf}`, issue));
  }
  return ok(null);
}

const notATransaction = (message: string): AppError => new AppError("NOT_A_TRANSACTION", message);

/**
 * An EVM account delegation is itself an EIP-7702 authorization: the signer's account runs the
 * contract's code from then on, on every chain when its chainId is 0, and the initiator names the
 * contract. Its signer, contract, chain and nonce are `tx.authorizations` like an
 * `evmTransaction`'s authorization list, so a policy that allows delegations can pin the contract
 * (they were no fact, and a policy could only allow every delegation or none).
 * A delegation that the body marks only by its subType is one authorization of unknown contract,
 * every field null: a rule that compares it errs to the safe side, and one that looks for an
 * authorization to another contract than its own finds it.
 */
function delegationAuthorizations(
  snapshot: Record<string, unknown>,
  details: Record<string, unknown> | null,
  delegationSubType: boolean,
  path: string,
): Result<Authorization[], AppError> {
  const found: Authorization[] = [];
  if (snapshot.evmAccountDelegation != null) {
    const api = check(apiDelegation, snapshot.evmAccountDelegation, at(path, "evmAccountDelegation"));
    if (!api.ok) return api;
    const spelt = accountsSpelt(
      { signerAddress: api.value.signerAddress?.value, contractAddress: api.value.contractAddress?.value },
      DELEGATION_FAMILY,
      at(path, "evmAccountDelegation"),
      ".value",
    );
    if (!spelt.ok) return spelt;
    found.push({
      signer: canonicalAccountOrNull(api.value.signerAddress?.value),
      contractAddress: canonicalAccountOrNull(api.value.contractAddress?.value),
      chainId: api.value.chainId ?? null,
      nonce: api.value.nonce ?? null,
    });
  }
  if (details?.evmAccountDelegation != null) {
    const ref = check(referenceDelegation, details.evmAccountDelegation, at(at(path, "details"), "evmAccountDelegation"));
    if (!ref.ok) return ref;
    const spelt = accountsSpelt(
      { fromAddress: ref.value.fromAddress, contractAddress: ref.value.contractAddress },
      DELEGATION_FAMILY,
      at(at(path, "details"), "evmAccountDelegation"),
      "",
    );
    if (!spelt.ok) return spelt;
    found.push({
      signer: canonicalAccountOrNull(ref.value.fromAddress),
      contractAddress: canonicalAccountOrNull(ref.value.contractAddress),
      chainId: ref.value.chainId ?? null,
      nonce: ref.value.nonce ?? null,
    });
  }
  if (found.length === 0 && delegationSubType) found.push({ signer: null, contractAddress: null, chainId: null, nonce: null });
  return ok(found);
}
