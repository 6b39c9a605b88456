-- Views for the common compliance questions (docs/audit.md "Views for compliance questions"), in
-- the order they depend on each other. They run with their owner's rights: the auditor reads them
-- without reading the tables under them.

-- One row per decision, its transfers as arrays in transfer order (a repeat's are those it repeats).
CREATE OR REPLACE VIEW public.decision_log AS
 SELECT d.decided_at,
    d.id AS decision_id,
    d.vault,
    d.transaction_name,
    d.decision,
    d.sign_transaction,
    d.http_status,
    d.replayed,
    d.replay_of,
    (d.reasons ->> 0) AS first_reason,
    d.policy_version,
    d.policy_digest,
    ARRAY( SELECT DISTINCT (m.value ->> 'rule'::text)
           FROM jsonb_array_elements(d.matched_rules) m(value)
          ORDER BY (m.value ->> 'rule'::text)) AS matched_rules,
    t.transfer_count,
    t.assets,
    t.amounts,
    t.sources,
    t.destinations,
    t.address_book_names,
    d.request_id,
    d.duration_ms,
    d.seq,
    t.usd_amounts
   FROM (public.decisions d
     CROSS JOIN LATERAL ( SELECT (count(*))::integer AS transfer_count,
            array_agg((f.doc #>> '{transfer,asset}'::text[]) ORDER BY ((f.doc #>> '{transfer,index}'::text[]))::integer) AS assets,
            array_agg(((f.doc #>> '{transfer,amount}'::text[]))::numeric ORDER BY ((f.doc #>> '{transfer,index}'::text[]))::integer) AS amounts,
            array_agg((f.doc #>> '{transfer,source,value}'::text[]) ORDER BY ((f.doc #>> '{transfer,index}'::text[]))::integer) AS sources,
            array_agg((f.doc #>> '{transfer,destination,value}'::text[]) ORDER BY ((f.doc #>> '{transfer,index}'::text[]))::integer) AS destinations,
            array_agg(COALESCE((f.doc #>> '{transfer,destination,addressBook,displayName}'::text[]), (f.doc #>> '{transfer,destination,addressBook,name}'::text[])) ORDER BY ((f.doc #>> '{transfer,index}'::text[]))::integer) AS address_book_names,
            array_agg(((f.doc #>> '{transfer,usd}'::text[]))::numeric ORDER BY ((f.doc #>> '{transfer,index}'::text[]))::integer) AS usd_amounts
           FROM jsonb_array_elements(public.decision_judged_facts(d.facts, d.replay_of, d.replayed)) f(doc)
          WHERE (jsonb_typeof((f.doc -> 'transfer'::text)) = 'object'::text)) t);

-- One row per transfer a decision judged, from the facts it recorded (a repeat's are those it repeats).
CREATE OR REPLACE VIEW public.decision_transfers AS
 SELECT d.id AS decision_id,
    d.decided_at,
    d.vault,
    d.transaction_name,
    d.decision,
    d.replayed,
    ((f.doc #>> '{transfer,index}'::text[]))::integer AS transfer_index,
    (f.doc #>> '{transfer,network}'::text[]) AS network,
    (f.doc #>> '{transfer,asset}'::text[]) AS asset,
    ((f.doc #>> '{transfer,amount}'::text[]))::numeric AS amount,
    (f.doc #>> '{transfer,rawAmount}'::text[]) AS raw_amount,
    (f.doc #>> '{transfer,source,value}'::text[]) AS source,
    (f.doc #>> '{transfer,source,wallet}'::text[]) AS source_wallet,
    (f.doc #>> '{transfer,destination,value}'::text[]) AS destination,
    ((f.doc #>> '{transfer,destination,internal}'::text[]))::boolean AS destination_internal,
    ((f.doc #>> '{transfer,destination,inAddressBook}'::text[]))::boolean AS in_address_book,
    COALESCE((f.doc #>> '{transfer,destination,addressBook,displayName}'::text[]), (f.doc #>> '{transfer,destination,addressBook,name}'::text[])) AS address_book_name,
    d.policy_version,
    d.seq,
    ((f.doc #>> '{transfer,usdPrice}'::text[]))::numeric AS usd_price,
    ((f.doc #>> '{transfer,usd}'::text[]))::numeric AS usd
   FROM (public.decisions d
     CROSS JOIN LATERAL jsonb_array_elements(public.decision_judged_facts(d.facts, d.replay_of, d.replayed)) f(doc))
  WHERE (jsonb_typeof((f.doc -> 'transfer'::text)) = 'object'::text);

-- Denials per UTC day and deny rule (with no rule, the first reason), repeats left out.
CREATE OR REPLACE VIEW public.denials_by_rule AS
 SELECT ((d.decided_at AT TIME ZONE 'UTC'::text))::date AS day,
    COALESCE(r.rule, (('('::text || COALESCE((d.reasons ->> 0), 'no reason'::text)) || ')'::text)) AS rule,
    (count(DISTINCT d.id))::integer AS denials,
    (count(DISTINCT d.transaction_name))::integer AS transactions,
    (count(DISTINCT d.vault))::integer AS vaults
   FROM (public.decisions d
     LEFT JOIN LATERAL ( SELECT DISTINCT (m.value ->> 'rule'::text) AS rule
           FROM jsonb_array_elements(d.matched_rules) m(value)
          WHERE ((m.value ->> 'decision'::text) = 'deny'::text)) r ON (true))
  WHERE ((d.decision = 'deny'::text) AND (NOT d.replayed))
  GROUP BY (((d.decided_at AT TIME ZONE 'UTC'::text))::date), COALESCE(r.rule, (('('::text || COALESCE((d.reasons ->> 0), 'no reason'::text)) || ')'::text));

-- Each transaction's states as the platform's events reported them.
CREATE OR REPLACE VIEW public.transaction_states AS
 SELECT e.resource AS transaction_name,
    e.vault,
        CASE
            WHEN (e.type = 'TRANSACTION_CREATED'::text) THEN 'CREATED'::text
            ELSE e.new_state
        END AS state,
    e.type AS event_type,
    e.id AS event_id,
    e.received_at,
    e.seq
   FROM public.events e
  WHERE ((e.resource IS NOT NULL) AND ((e.type = 'TRANSACTION_CREATED'::text) OR ((e.type = 'TRANSACTION_STATE_UPDATED'::text) AND (e.new_state IS NOT NULL))));

-- Decisions, events, review actions, voids and refused deliveries of each transaction; order by (at, seq).
CREATE OR REPLACE VIEW public.transaction_timeline AS
 SELECT d.transaction_name,
    d.vault,
    d.decided_at AS at,
        CASE
            WHEN d.replayed THEN 'repeat'::text
            WHEN (d.replay_of IS NOT NULL) THEN 'conflict'::text
            ELSE 'decision'::text
        END AS kind,
    d.decision AS outcome,
    (d.reasons ->> 0) AS detail,
    'decisions'::text AS source,
    (d.id)::text AS row_key,
    d.seq
   FROM public.decisions d
UNION ALL
 SELECT e.resource AS transaction_name,
    e.vault,
    e.received_at AS at,
    'event'::text AS kind,
    COALESCE(e.new_state, e.type) AS outcome,
    e.type AS detail,
    'events'::text AS source,
    e.id AS row_key,
    e.seq
   FROM public.events e
  WHERE (e.resource ~~ 'vaults/%/transactions/%'::text)
UNION ALL
 SELECT a.transaction_name,
    ('vaults/'::text || split_part(a.transaction_name, '/'::text, 2)) AS vault,
    a.at,
    'review'::text AS kind,
    a.action AS outcome,
    concat_ws(': '::text, a.identity, a.comment) AS detail,
    'review_actions'::text AS source,
    (a.id)::text AS row_key,
    a.seq
   FROM public.review_actions a
UNION ALL
 SELECT v.transaction_name,
    ('vaults/'::text || split_part(v.transaction_name, '/'::text, 2)) AS vault,
    v.at,
    'void'::text AS kind,
    ((v.charges)::text || ' charges voided'::text) AS outcome,
    concat_ws(': '::text, v.operator, v.reason) AS detail,
    'velocity_voids'::text AS source,
    (v.id)::text AS row_key,
    v.seq
   FROM public.velocity_voids v
UNION ALL
 SELECT r.transaction_name,
    r.vault,
    r.refused_at AS at,
    'refusal'::text AS kind,
    r.code AS outcome,
    concat_ws(', '::text, ('delivered '::text || r.delivered_digest), ('platform '::text || COALESCE(r.platform_digest, 'has no such transaction'::text)), ('state '::text || r.platform_state)) AS detail,
    'delivery_refusals'::text AS source,
    (r.id)::text AS row_key,
    r.seq
   FROM public.delivery_refusals r;

-- Per velocity group and asset: live use in the last hour and day, in the asset's units and in
-- dollars at each charge's price, voided charges, the last charge. A group not keyed by asset holds
-- charges of several: one row each, never one sum of different assets' units. A group's dollars are
-- the sum of its rows' (a charge without a price counts none; charges recorded before charges kept
-- their asset have a null asset).
CREATE OR REPLACE VIEW public.velocity_usage AS
 SELECT g.group_key,
    c.asset,
    COALESCE(sum(c.amount) FILTER (WHERE ((c.voided_at IS NULL) AND (c.charged_at > (now() - '01:00:00'::interval)))), (0)::numeric) AS used_amount_1h,
    (count(*) FILTER (WHERE ((c.voided_at IS NULL) AND (c.charged_at > (now() - '01:00:00'::interval)))))::integer AS used_count_1h,
    COALESCE(sum(c.usd) FILTER (WHERE ((c.voided_at IS NULL) AND (c.charged_at > (now() - '01:00:00'::interval)))), (0)::numeric) AS used_usd_1h,
    COALESCE(sum(c.amount) FILTER (WHERE ((c.voided_at IS NULL) AND (c.charged_at > (now() - '1 day'::interval)))), (0)::numeric) AS used_amount_24h,
    (count(*) FILTER (WHERE ((c.voided_at IS NULL) AND (c.charged_at > (now() - '1 day'::interval)))))::integer AS used_count_24h,
    COALESCE(sum(c.usd) FILTER (WHERE ((c.voided_at IS NULL) AND (c.charged_at > (now() - '1 day'::interval)))), (0)::numeric) AS used_usd_24h,
    (count(*) FILTER (WHERE (c.voided_at IS NOT NULL)))::integer AS voided_charges,
    max(c.charged_at) AS last_charged_at,
    (array_agg(c.transaction_name ORDER BY c.charged_at DESC, c.id DESC))[1] AS last_transaction
   FROM (public.velocity_groups g
     JOIN public.velocity_charges c ON ((c.group_hash = g.group_hash)))
  GROUP BY g.group_key, c.asset;

-- The writer and the auditor may read the views, nothing more (a view created by the owner would
-- otherwise take the owner's default privileges).
REVOKE ALL ON TABLE public.decision_log FROM countersign_writer, countersign_auditor;
GRANT SELECT ON TABLE public.decision_log TO countersign_writer;

GRANT SELECT ON TABLE public.decision_log TO countersign_auditor;

REVOKE ALL ON TABLE public.decision_transfers FROM countersign_writer, countersign_auditor;
GRANT SELECT ON TABLE public.decision_transfers TO countersign_writer;

GRANT SELECT ON TABLE public.decision_transfers TO countersign_auditor;

REVOKE ALL ON TABLE public.denials_by_rule FROM countersign_writer, countersign_auditor;
GRANT SELECT ON TABLE public.denials_by_rule TO countersign_writer;

GRANT SELECT ON TABLE public.denials_by_rule TO countersign_auditor;

REVOKE ALL ON TABLE public.transaction_states FROM countersign_writer, countersign_auditor;
GRANT SELECT ON TABLE public.transaction_states TO countersign_writer;

GRANT SELECT ON TABLE public.transaction_states TO countersign_auditor;

REVOKE ALL ON TABLE public.transaction_timeline FROM countersign_writer, countersign_auditor;
GRANT SELECT ON TABLE public.transaction_timeline TO countersign_writer;

GRANT SELECT ON TABLE public.transaction_timeline TO countersign_auditor;

REVOKE ALL ON TABLE public.velocity_usage FROM countersign_writer, countersign_auditor;
GRANT SELECT ON TABLE public.velocity_usage TO countersign_writer;

GRANT SELECT ON TABLE public.velocity_usage TO countersign_auditor;
