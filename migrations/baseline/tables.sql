CREATE TABLE public.address_book_entries (
    vault text NOT NULL,
    generation bigint NOT NULL,
    name text NOT NULL,
    display_name text,
    address text NOT NULL,
    network text NOT NULL,
    signed boolean
);

CREATE TABLE public.address_book_external_wallets (
    vault text NOT NULL,
    generation bigint NOT NULL,
    wallet text NOT NULL
);

CREATE TABLE public.address_book_own_addresses (
    vault text NOT NULL,
    generation bigint NOT NULL,
    wallet text NOT NULL,
    wallet_address text,
    address text NOT NULL,
    network text NOT NULL
);

CREATE TABLE public.address_book_sync (
    vault text NOT NULL,
    generation bigint DEFAULT 0 NOT NULL,
    content_digest text,
    synced_at timestamp with time zone,
    attempted_at timestamp with time zone,
    last_error_code text,
    last_error text,
    last_error_at timestamp with time zone,
    entry_count integer DEFAULT 0 NOT NULL,
    own_address_count integer DEFAULT 0 NOT NULL,
    CONSTRAINT address_book_sync_generation_check CHECK ((generation >= 0))
);

CREATE TABLE public.address_book_wallets (
    vault text NOT NULL,
    generation bigint NOT NULL,
    wallet text NOT NULL
);

CREATE TABLE public.audit_chain (
    "position" bigint NOT NULL,
    source text NOT NULL,
    row_key text NOT NULL,
    row_time timestamp with time zone NOT NULL,
    row_digest bytea NOT NULL,
    prev_hash bytea NOT NULL,
    hash bytea NOT NULL,
    sealed_at timestamp with time zone NOT NULL,
    CONSTRAINT audit_chain_hash_check CHECK ((octet_length(hash) = 32)),
    CONSTRAINT audit_chain_position_check CHECK (("position" >= 1)),
    CONSTRAINT audit_chain_prev_hash_check CHECK ((octet_length(prev_hash) = 32)),
    CONSTRAINT audit_chain_row_digest_check CHECK ((octet_length(row_digest) = 32))
);

CREATE TABLE public.audit_seals (
    id bigint NOT NULL,
    sealed_at timestamp with time zone NOT NULL,
    horizon xid8 NOT NULL,
    first_position bigint NOT NULL,
    last_position bigint NOT NULL,
    last_hash bytea NOT NULL
);

ALTER TABLE public.audit_seals ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.audit_seals_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.audit_sources (
    source text NOT NULL,
    key_column text NOT NULL,
    key_type text NOT NULL,
    time_column text NOT NULL,
    registered_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.decisions (
    id uuid NOT NULL,
    seq bigint NOT NULL,
    decided_at timestamp with time zone NOT NULL,
    transaction_name text NOT NULL,
    vault text NOT NULL,
    decision text NOT NULL,
    sign_transaction boolean,
    http_status integer NOT NULL,
    replayed boolean DEFAULT false NOT NULL,
    replay_of uuid,
    policy_version text NOT NULL,
    policy_digest text NOT NULL,
    matched_rules jsonb NOT NULL,
    reasons jsonb NOT NULL,
    facts jsonb NOT NULL,
    transaction jsonb NOT NULL,
    content_digest text NOT NULL,
    request_id text NOT NULL,
    duration_ms double precision NOT NULL,
    written_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    trace jsonb,
    velocity_windows jsonb,
    shadow_policy_version text,
    shadow_policy_digest text,
    shadow_decision text,
    shadow_matched_rules jsonb,
    shadow_error text,
    CONSTRAINT decisions_partitioned_decision_check CHECK ((decision = ANY (ARRAY['allow'::text, 'deny'::text, 'defer'::text]))),
    CONSTRAINT decisions_shadow_decision_check CHECK ((shadow_decision = ANY (ARRAY['allow'::text, 'deny'::text, 'defer'::text]))),
    CONSTRAINT decisions_sign_matches_decision CHECK ((((decision = 'defer'::text) AND (sign_transaction IS NULL)) OR ((decision = 'allow'::text) AND sign_transaction) OR ((decision = 'deny'::text) AND (NOT sign_transaction))))
)
PARTITION BY RANGE (decided_at);

CREATE TABLE public.decisions_default (
    id uuid NOT NULL,
    seq bigint NOT NULL,
    decided_at timestamp with time zone NOT NULL,
    transaction_name text NOT NULL,
    vault text NOT NULL,
    decision text NOT NULL,
    sign_transaction boolean,
    http_status integer NOT NULL,
    replayed boolean DEFAULT false NOT NULL,
    replay_of uuid,
    policy_version text NOT NULL,
    policy_digest text NOT NULL,
    matched_rules jsonb NOT NULL,
    reasons jsonb NOT NULL,
    facts jsonb NOT NULL,
    transaction jsonb NOT NULL,
    content_digest text NOT NULL,
    request_id text NOT NULL,
    duration_ms double precision NOT NULL,
    written_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    trace jsonb,
    velocity_windows jsonb,
    shadow_policy_version text,
    shadow_policy_digest text,
    shadow_decision text,
    shadow_matched_rules jsonb,
    shadow_error text,
    CONSTRAINT decisions_partitioned_decision_check CHECK ((decision = ANY (ARRAY['allow'::text, 'deny'::text, 'defer'::text]))),
    CONSTRAINT decisions_shadow_decision_check CHECK ((shadow_decision = ANY (ARRAY['allow'::text, 'deny'::text, 'defer'::text]))),
    CONSTRAINT decisions_sign_matches_decision CHECK ((((decision = 'defer'::text) AND (sign_transaction IS NULL)) OR ((decision = 'allow'::text) AND sign_transaction) OR ((decision = 'deny'::text) AND (NOT sign_transaction))))
);

ALTER TABLE public.decisions ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.decisions_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.event_effects (
    event_id text NOT NULL,
    effect text NOT NULL,
    completed_at timestamp with time zone NOT NULL
);

CREATE TABLE public.events (
    id text NOT NULL,
    seq bigint NOT NULL,
    received_at timestamp with time zone NOT NULL,
    vault text,
    type text NOT NULL,
    resource_type text,
    resource text,
    new_state text,
    details jsonb,
    payload jsonb NOT NULL,
    body bytea NOT NULL,
    signature text NOT NULL,
    written_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    CONSTRAINT events_new_state_only_for_state_updates CHECK (((new_state IS NULL) OR (type = 'TRANSACTION_STATE_UPDATED'::text)))
);

ALTER TABLE public.events ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.events_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.final_decisions (
    transaction_name text NOT NULL,
    decision_id uuid NOT NULL,
    decided_at timestamp with time zone NOT NULL
);

CREATE TABLE public.policy_adoptions (
    digest text NOT NULL,
    version text NOT NULL,
    adopted_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT policy_adoptions_digest_check CHECK ((digest ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT policy_adoptions_version_check CHECK (((length(version) >= 1) AND (length(version) <= 200)))
);

CREATE TABLE public.policy_holders (
    holder text NOT NULL,
    digest text NOT NULL,
    deciding boolean DEFAULT true NOT NULL,
    seen_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT policy_holders_digest_check CHECK ((digest ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT policy_holders_holder_check CHECK (((length(holder) >= 1) AND (length(holder) <= 200)))
);

CREATE TABLE public.review_actions (
    id uuid NOT NULL,
    seq bigint NOT NULL,
    at timestamp with time zone NOT NULL,
    transaction_name text NOT NULL,
    content_digest text NOT NULL,
    identity text,
    action text NOT NULL,
    "group" text,
    comment text,
    written_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    CONSTRAINT review_actions_action_check CHECK ((action = ANY (ARRAY['opened'::text, 'approved'::text, 'rejected'::text, 'expired'::text]))),
    CONSTRAINT review_actions_by_someone CHECK (((action = ANY (ARRAY['opened'::text, 'expired'::text])) OR ((identity IS NOT NULL) AND ("group" IS NOT NULL))))
);

ALTER TABLE public.review_actions ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.review_actions_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.reviews (
    id uuid NOT NULL,
    seq bigint NOT NULL,
    transaction_name text NOT NULL,
    vault text NOT NULL,
    content_digest text NOT NULL,
    opened_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    opened_by uuid NOT NULL,
    initiator text,
    requirements jsonb NOT NULL,
    explanation jsonb NOT NULL,
    written_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    CONSTRAINT reviews_expire_after_opening CHECK ((expires_at > opened_at))
);

ALTER TABLE public.reviews ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.reviews_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.velocity_voids (
    id uuid NOT NULL,
    seq bigint NOT NULL,
    at timestamp with time zone NOT NULL,
    transaction_name text NOT NULL,
    charges integer NOT NULL,
    operator text NOT NULL,
    reason text NOT NULL,
    database_user text DEFAULT SESSION_USER NOT NULL,
    written_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    CONSTRAINT velocity_voids_charges_check CHECK ((charges > 0)),
    CONSTRAINT velocity_voids_operator_check CHECK (((length(operator) >= 1) AND (length(operator) <= 200))),
    CONSTRAINT velocity_voids_reason_check CHECK (((length(reason) >= 1) AND (length(reason) <= 2000)))
);

CREATE TABLE public.velocity_buckets (
    group_hash bytea NOT NULL,
    width_seconds integer NOT NULL,
    bucket_start timestamp with time zone NOT NULL,
    amount numeric NOT NULL,
    count bigint NOT NULL,
    CONSTRAINT velocity_buckets_aligned CHECK ((bucket_start = date_bin(make_interval(secs => (width_seconds)::double precision), bucket_start, '1970-01-01 00:00:00+00'::timestamp with time zone))),
    CONSTRAINT velocity_buckets_amount_check CHECK (((amount >= (0)::numeric) AND (amount < 'Infinity'::numeric))),
    CONSTRAINT velocity_buckets_count_check CHECK ((count >= 0)),
    CONSTRAINT velocity_buckets_width_seconds_check CHECK ((width_seconds = ANY (ARRAY[60, 3600, 86400])))
);

CREATE TABLE public.velocity_charges (
    id bigint NOT NULL,
    decision_id uuid NOT NULL,
    transaction_name text NOT NULL,
    vault text NOT NULL,
    transfer_index integer NOT NULL,
    group_hash bytea NOT NULL,
    amount numeric,
    charged_at timestamp with time zone NOT NULL,
    voided_at timestamp with time zone,
    CONSTRAINT velocity_charges_amount_check CHECK (((amount >= (0)::numeric) AND (amount < 'Infinity'::numeric))),
    CONSTRAINT velocity_charges_transfer_index_check CHECK ((transfer_index >= 0))
);

ALTER TABLE public.velocity_charges ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.velocity_charges_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.velocity_groups (
    group_hash bytea NOT NULL,
    group_key text NOT NULL,
    first_charged_at timestamp with time zone NOT NULL,
    CONSTRAINT velocity_groups_group_hash_check CHECK ((octet_length(group_hash) = 32))
);

ALTER TABLE public.velocity_voids ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.velocity_voids_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.velocity_window_claims (
    holder text NOT NULL,
    window_seconds integer NOT NULL,
    claimed_at timestamp with time zone DEFAULT now() NOT NULL,
    lapses_at timestamp with time zone NOT NULL,
    CONSTRAINT velocity_window_claims_holder_check CHECK (((length(holder) >= 1) AND (length(holder) <= 200))),
    CONSTRAINT velocity_window_claims_window_seconds_check CHECK (((window_seconds >= 1) AND (window_seconds <= 316224000)))
);

ALTER TABLE ONLY public.decisions ATTACH PARTITION public.decisions_default DEFAULT;

ALTER TABLE ONLY public.address_book_entries
    ADD CONSTRAINT address_book_entries_pk PRIMARY KEY (vault, generation, name);

ALTER TABLE ONLY public.address_book_external_wallets
    ADD CONSTRAINT address_book_external_wallets_pk PRIMARY KEY (vault, generation, wallet);

ALTER TABLE ONLY public.address_book_own_addresses
    ADD CONSTRAINT address_book_own_addresses_pk PRIMARY KEY (vault, generation, wallet, network, address);

ALTER TABLE ONLY public.address_book_sync
    ADD CONSTRAINT address_book_sync_pkey PRIMARY KEY (vault);

ALTER TABLE ONLY public.address_book_wallets
    ADD CONSTRAINT address_book_wallets_pk PRIMARY KEY (vault, generation, wallet);

ALTER TABLE ONLY public.audit_chain
    ADD CONSTRAINT audit_chain_pkey PRIMARY KEY ("position");

ALTER TABLE ONLY public.audit_chain
    ADD CONSTRAINT audit_chain_row_once UNIQUE (source, row_key);

ALTER TABLE ONLY public.audit_seals
    ADD CONSTRAINT audit_seals_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.audit_sources
    ADD CONSTRAINT audit_sources_pkey PRIMARY KEY (source);

ALTER TABLE ONLY public.decisions
    ADD CONSTRAINT decisions_pkey PRIMARY KEY (id, decided_at);

ALTER TABLE ONLY public.decisions_default
    ADD CONSTRAINT decisions_default_pkey PRIMARY KEY (id, decided_at);

ALTER TABLE ONLY public.event_effects
    ADD CONSTRAINT event_effects_pkey PRIMARY KEY (event_id);

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_seq_key UNIQUE (seq);

ALTER TABLE ONLY public.final_decisions
    ADD CONSTRAINT final_decisions_pkey PRIMARY KEY (transaction_name);

ALTER TABLE ONLY public.policy_adoptions
    ADD CONSTRAINT policy_adoptions_pkey PRIMARY KEY (digest);

ALTER TABLE ONLY public.policy_holders
    ADD CONSTRAINT policy_holders_pkey PRIMARY KEY (holder);

ALTER TABLE ONLY public.review_actions
    ADD CONSTRAINT review_actions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.review_actions
    ADD CONSTRAINT review_actions_seq_key UNIQUE (seq);

ALTER TABLE ONLY public.reviews
    ADD CONSTRAINT reviews_once_per_content UNIQUE (transaction_name, content_digest);

ALTER TABLE ONLY public.reviews
    ADD CONSTRAINT reviews_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.reviews
    ADD CONSTRAINT reviews_seq_key UNIQUE (seq);

ALTER TABLE ONLY public.velocity_buckets
    ADD CONSTRAINT velocity_buckets_pk PRIMARY KEY (group_hash, width_seconds, bucket_start);

ALTER TABLE ONLY public.velocity_charges
    ADD CONSTRAINT velocity_charges_once UNIQUE (transaction_name, transfer_index, group_hash);

ALTER TABLE ONLY public.velocity_charges
    ADD CONSTRAINT velocity_charges_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.velocity_groups
    ADD CONSTRAINT velocity_groups_pkey PRIMARY KEY (group_hash);

ALTER TABLE ONLY public.velocity_voids
    ADD CONSTRAINT velocity_voids_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.velocity_voids
    ADD CONSTRAINT velocity_voids_seq_key UNIQUE (seq);

ALTER TABLE ONLY public.velocity_window_claims
    ADD CONSTRAINT velocity_window_claims_pkey PRIMARY KEY (holder, window_seconds);

CREATE INDEX audit_chain_by_sealed_at ON public.audit_chain USING btree (sealed_at);

CREATE INDEX decisions_by_replay_of ON ONLY public.decisions USING btree (replay_of) WHERE (replay_of IS NOT NULL);

CREATE INDEX decisions_by_seq ON ONLY public.decisions USING btree (seq);

CREATE INDEX decisions_by_time ON ONLY public.decisions USING btree (decided_at);

CREATE INDEX decisions_by_transaction ON ONLY public.decisions USING btree (transaction_name, seq);

CREATE INDEX decisions_by_vault_time ON ONLY public.decisions USING btree (vault, decided_at);

CREATE INDEX decisions_by_written_xid ON ONLY public.decisions USING btree (written_xid);

CREATE INDEX decisions_default_decided_at_idx ON public.decisions_default USING btree (decided_at);

CREATE INDEX decisions_default_replay_of_idx ON public.decisions_default USING btree (replay_of) WHERE (replay_of IS NOT NULL);

CREATE INDEX decisions_default_seq_idx ON public.decisions_default USING btree (seq);

CREATE INDEX decisions_default_transaction_name_seq_idx ON public.decisions_default USING btree (transaction_name, seq);

CREATE INDEX decisions_default_vault_decided_at_idx ON public.decisions_default USING btree (vault, decided_at);

CREATE INDEX decisions_default_written_xid_idx ON public.decisions_default USING btree (written_xid);

CREATE INDEX events_by_received_at ON public.events USING btree (received_at);

CREATE INDEX events_by_resource ON public.events USING btree (resource, seq);

CREATE INDEX events_by_vault_time ON public.events USING btree (vault, received_at);

CREATE INDEX events_by_written_xid ON public.events USING btree (written_xid);

CREATE INDEX review_actions_by_at ON public.review_actions USING btree (at);

CREATE INDEX review_actions_by_transaction ON public.review_actions USING btree (transaction_name, seq);

CREATE INDEX review_actions_by_written_xid ON public.review_actions USING btree (written_xid);

CREATE UNIQUE INDEX review_actions_one_approval ON public.review_actions USING btree (transaction_name, content_digest, identity, "group") WHERE (action = 'approved'::text);

CREATE UNIQUE INDEX review_actions_one_close ON public.review_actions USING btree (transaction_name, content_digest, action) WHERE (action = ANY (ARRAY['rejected'::text, 'expired'::text]));

CREATE INDEX reviews_by_time ON public.reviews USING btree (opened_at);

CREATE INDEX reviews_by_written_xid ON public.reviews USING btree (written_xid);

CREATE INDEX velocity_buckets_by_start ON public.velocity_buckets USING brin (bucket_start) WITH (autosummarize='on');

CREATE INDEX velocity_charges_by_decision ON public.velocity_charges USING btree (decision_id);

CREATE INDEX velocity_charges_by_time ON public.velocity_charges USING brin (charged_at) WITH (autosummarize='on');

CREATE INDEX velocity_charges_live_by_group_time ON public.velocity_charges USING btree (group_hash, charged_at) INCLUDE (amount) WHERE (voided_at IS NULL);

CREATE INDEX velocity_voids_by_at ON public.velocity_voids USING btree (at);

CREATE INDEX velocity_voids_by_transaction ON public.velocity_voids USING btree (transaction_name, seq);

CREATE INDEX velocity_voids_by_written_xid ON public.velocity_voids USING btree (written_xid);

ALTER INDEX public.decisions_by_time ATTACH PARTITION public.decisions_default_decided_at_idx;

ALTER INDEX public.decisions_pkey ATTACH PARTITION public.decisions_default_pkey;

ALTER INDEX public.decisions_by_replay_of ATTACH PARTITION public.decisions_default_replay_of_idx;

ALTER INDEX public.decisions_by_seq ATTACH PARTITION public.decisions_default_seq_idx;

ALTER INDEX public.decisions_by_transaction ATTACH PARTITION public.decisions_default_transaction_name_seq_idx;

ALTER INDEX public.decisions_by_vault_time ATTACH PARTITION public.decisions_default_vault_decided_at_idx;

ALTER INDEX public.decisions_by_written_xid ATTACH PARTITION public.decisions_default_written_xid_idx;

ALTER TABLE ONLY public.audit_chain
    ADD CONSTRAINT audit_chain_source_fkey FOREIGN KEY (source) REFERENCES public.audit_sources(source);

ALTER TABLE ONLY public.event_effects
    ADD CONSTRAINT event_effects_event_id_fkey FOREIGN KEY (event_id) REFERENCES public.events(id);

ALTER TABLE ONLY public.review_actions
    ADD CONSTRAINT review_actions_of_a_review FOREIGN KEY (transaction_name, content_digest) REFERENCES public.reviews(transaction_name, content_digest);
