/**
 * The transaction as countersign understands it, whichever of the three accepted body shapes it
 * arrived in (docs/interface.md section 1). Produced by `parseTransaction`, consumed by the facts builder.
 */

export type TransactionKind = "assetTransfer" | "stellarTransaction" | "evmAccountDelegation" | "unknown";

/** How a source or destination was written: a wallet name, a wallet-address name, or a raw address. */
export type EndpointForm = "wallet" | "walletAddress" | "address";

export type AssetStandard = "native" | "erc20" | "spl" | "stellarClassic" | "sep41" | "other";

export interface Endpoint {
  /** Exactly as given in the body. */
  value: string;
  kind: EndpointForm;
  /** Wallet resource name (`vaults/{v}/wallets/{w}`) when known from the body, else null. */
  wallet: string | null;
  /** Raw chain address when the endpoint is one, in its family's canonical spelling (src/core/chains/canonical.ts), else null. */
  address: string | null;
}

export interface Transfer {
  index: number;
  /** Network id without the `networks/` prefix (`ethereum-mainnet`), or null when unknowable. */
  network: string | null;
  /** As given: `assets/native.ethereum-mainnet`, a Stellar `CODE-ISSUER`, or a contract `C…`. */
  asset: string;
  assetStandard: AssetStandard;
  /** Whole units as a plain decimal string; null when only a raw amount is known (SEP-41). */
  amount: string | null;
  /** Smallest units as a plain integer string, or null. */
  rawAmount: string | null;
  source: Endpoint;
  destination: Endpoint;
  /** Sponsor wallet, or the Stellar transaction-level source, or null. */
  sponsor: string | null;
  /**
   * Present on a Stellar operation's transfer, whatever kind the transaction ends up (a payload
   * makes it `unknown`): the operation acts for its own source account, which need not be the
   * transaction-level source (`sponsor`). Absent on a plain asset transfer.
   */
  stellarOperation?: true;
}

export interface Transaction {
  /** `vaults/{v}/transactions/{t}` */
  name: string;
  /** `vaults/{v}` */
  vault: string;
  /** `{t}` */
  id: string;
  kind: TransactionKind;
  type: string | null;
  subType: string | null;
  state: string | null;
  /** As received (`networks/ethereum-mainnet`), or null. */
  network: string | null;
  note: string | null;
  externalId: string | null;
  requestId: string | null;
  initiator: string | null;
  designatedSigners: string[];
  /** `request.sourceWallet` as a full wallet name, or null: a claim about raw source addresses, never an override. */
  sourceWallet: string | null;
  transfers: Transfer[];
  /**
   * What the transaction carries beside its transfers that can move value or grant authority
   * (src/core/transaction/field-classes.ts), sorted and distinct. Non-empty makes the kind `unknown`.
   */
  payloads: string[];
  /** `tokenAllowances[]` as given (also a payload): who lets whom spend how much of what. */
  tokenAllowances: TokenAllowance[];
  /** EIP-7702 `evmTransaction.authorizationDetails.authorizationList` as given (also a payload). */
  authorizations: Authorization[];
  /**
   * Bitcoin outputs the body marks `change: true`. The mark is a hint: the facts count such an
   * output as change only at an address the vault's synced copy knows as its own (else the payload
   * `btcOutputs`, src/core/facts/transfer-facts.ts).
   */
  changeOutputs: ChangeOutput[];
  /**
   * The addresses a Bitcoin transaction spends from (`btcTransaction.inputs`). The facts accept
   * them only as addresses of the transfers' source wallet in the synced copy (else the payload
   * `btcInputs`, src/core/facts/transfer-facts.ts): value would otherwise leave a wallet no policy saw.
   */
  btcInputs: ChangeOutput[];
  /**
   * The account the signed transaction pays from, as a chain object names it
   * (`evmTransaction.fromAddress`, `suiTransaction.sender`, ...: chain-senders.ts), or null. A
   * transfer naming its source by wallet is checked against it (src/decision/verify-claims.ts).
   */
  sender: ChainSender | null;
  /** The memo the transaction carries (Stellar, TON), from the signed envelope where there is one (memo.ts). */
  memo: Memo | null;
  /** The network fee the body states, or null (fee.ts). */
  fee: Fee | null;
  /** The transaction object as received (unwrapped from `{"transaction": ...}`), kept for the audit row. */
  snapshot: Record<string, unknown>;
}

/** The account a chain object says the transaction pays from (chain-senders.ts). */
export interface ChainSender {
  /** Where the body names it: `evmTransaction.fromAddress`, `suiTransaction.sender`, ... */
  field: string;
  /** The chain, for reasons: `EVM`, `TON`, `Sui`, `Aptos`, `Substrate`. */
  chain: string;
  /** The account as the facts compare it: a short Sui or Aptos account padded to 32 bytes, a Substrate public key as its generic SS58 account. */
  address: string;
}

/** The network fee a transaction states (fee.ts): whole units of `asset`, the network's native coin (null when no network is known). */
export interface Fee {
  asset: string | null;
  amount: string;
}

/** A transaction memo: `type` TEXT, ID, HASH or RETURN; a hash as `0x` and lower-case hex. */
export interface Memo {
  type: string;
  data: string;
}

/** An address on a network: a Bitcoin change output's, or an input's. */
export interface ChangeOutput {
  address: string;
  /** The network it pays on, as the transfers name it (`bitcoin-mainnet`), or null when none says. */
  network: string | null;
}

export interface TokenAllowance {
  approver: string | null;
  spender: string | null;
  asset: string | null;
  /** Whole units, as given. */
  amount: string | null;
}

export interface Authorization {
  signer: string | null;
  contractAddress: string | null;
  chainId: string | null;
  nonce: string | null;
}
