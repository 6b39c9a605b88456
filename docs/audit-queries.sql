-- countersign audit queries, for a compliance officer with a SQL client (psql shown).
-- Connect as a login role granted countersign_auditor (README "Database roles"); it can read
-- the audit tables and these views, nothing else. Times are timestamptz: write them with a zone.
-- Each query takes psql variables; set them first, for example:
\set tx 'vaults/5c3f1a2b9d7e/transactions/t-otc'
\set wallet 'vaults/5c3f1a2b9d7e/wallets/7a8b9c0d1e2f'
\set amount 1
\set from '2026-11-10T00:00:00Z'
\set to '2026-11-12T00:00:00Z'
\set rule 'usdc-transfer-limit'

-- Q1. Every decision for one transaction, in the order they were made: first decision, repeats,
--     conflicting snapshots, defers. One row per delivery.
select decided_at, decision, replayed, replay_of is not null as refers_to_final, first_reason, policy_version, matched_rules
from decision_log
where transaction_name = :'tx'
order by seq;

-- Q2. Every allow above an amount to a destination outside the address book (internal moves
--     between the vault's own wallets included: they are not address-book entries either).
select decided_at, transaction_name, asset, amount, source, destination, destination_internal
from decision_transfers
where decision = 'allow' and not replayed
  and amount > :amount
  and not coalesce(in_address_book, false)
order by decided_at, transaction_name, transfer_index;

-- Q3. Which policy version decided what in a period (fresh decisions only; repeats carry the
--     version of the decision they repeat).
select policy_version, decision, count(*) as decisions, min(decided_at) as first, max(decided_at) as last
from decision_log
where decided_at >= :'from' and decided_at < :'to' and not replayed
group by policy_version, decision
order by policy_version, decision;

-- Q4. Decisions about transfers out of one wallet in a time range (each decision once: a repeat,
--     which the view shows with the transfers of the decision it repeats, is left out).
select decided_at, transaction_name, decision, asset, amount, destination, address_book_name
from decision_transfers
where source_wallet = :'wallet' and decided_at >= :'from' and decided_at < :'to' and not replayed
order by decided_at, transaction_name, transfer_index;

-- Q5. Repeats and conflicting snapshots: later deliveries of an already decided transaction.
--     A repeat got the same answer; a conflict changed content and was denied. final_decided_at is
--     the sealed row's (the one the hash chain holds; before its seal, the one written first);
--     final_rows above 1 means a second row carries the final decision's id: the trail was
--     tampered with (`countersign audit verify` names it).
select l.decided_at, l.transaction_name, case when l.replayed then 'repeat' else 'conflict' end as kind, l.decision, l.first_reason,
  f.decided_at as final_decided_at, f.final_rows
from decision_log l
left join lateral (
  select f.decided_at, (count(*) over ())::int as final_rows
  from decisions f
  left join audit_chain c on c.source = 'decisions' and c.row_key = f.id::text and c.row_time = f.decided_at
  where f.id = l.replay_of
  order by c.position is null, f.seq
  limit 1
) f on true
where l.replay_of is not null
order by l.seq;

-- Q6. Defers that were later signed: the transaction was deferred, then allowed.
select d.transaction_name, d.decided_at as deferred_at, d.first_reason as deferred_because, a.decided_at as signed_at
from decision_log d
join lateral (
  select s.decided_at from decisions s
  where s.transaction_name = d.transaction_name and s.decision = 'allow' and not s.replayed and s.seq > d.seq
  order by s.seq limit 1
) a on true
where d.decision = 'defer'
order by d.seq;

-- Q7. Voided velocity charges and why: a void by hand (`countersign velocity void`) by its record in
--     velocity_voids (operator, reason, database user: written with the charges' voided_at, in the
--     same transaction), any other by the failure the platform reported before it (CANCELED, FAILED,
--     DECLINED, DECLINED_BY_AML_POLICY: the states whose event voids). A void by hand of a DROPPED,
--     EXPIRED or REPLACED transaction is the operator's word, not that event's.
select c.transaction_name, g.group_key, c.amount, c.charged_at, c.voided_at,
  case when v.id is not null then 'by hand' when e.id is not null then 'event' end as voided_by,
  v.operator, v.reason, v.database_user,
  e.type as event, e.new_state, e.received_at as event_at
from velocity_charges c
join velocity_groups g on g.group_hash = c.group_hash
left join lateral (
  select * from velocity_voids v where v.transaction_name = c.transaction_name and v.at = c.voided_at
  order by v.seq desc limit 1
) v on true
left join lateral (
  select * from events e
  where v.id is null and e.resource = c.transaction_name and e.received_at <= c.voided_at
    and e.type = 'TRANSACTION_STATE_UPDATED' and e.new_state in ('CANCELED', 'FAILED', 'DECLINED', 'DECLINED_BY_AML_POLICY')
  order by e.received_at desc, e.seq desc limit 1
) e on true
where c.voided_at is not null
order by c.voided_at, c.transaction_name, g.group_key;

-- Q8. Denials per day and rule in a period (a denial without a deny rule shows its first reason in parentheses).
select day, rule, denials, transactions
from denials_by_rule
where day >= (:'from'::timestamptz at time zone 'UTC')::date and day < (:'to'::timestamptz at time zone 'UTC')::date
order by day, rule;

-- Q9. Everything that happened to one transaction, decisions and platform events, in order.
select at, kind, outcome, detail, source, row_key
from transaction_timeline
where transaction_name = :'tx'
order by at, seq;

-- Q10. Decisions in which one rule matched, with the transfer amounts it judged.
select decided_at, transaction_name, decision, first_reason, assets, amounts
from decision_log
where :'rule' = any(matched_rules) and not replayed
order by seq;

-- Q11. Velocity use of one wallet's groups, per asset: live use in the last day in the asset's units
--      and in dollars (at each charge's price), voided charges, last charge. A group's dollars are
--      the sum of its assets' rows; its amounts are never added across assets.
select group_key, asset, used_amount_24h, used_usd_24h, used_count_24h, voided_charges, last_charged_at, last_transaction
from velocity_usage
where group_key like '%' || :'wallet' || '%'
order by group_key, asset;

-- Q12. How far the hash chain reaches: rows sealed per table and the last seal (compare the last
--      hash with the checkpoint you anchored; `countersign audit verify` recomputes it all).
select c.source, count(*) as sealed_rows, max(c.position) as last_position,
  (select encode(s.last_hash, 'hex') from audit_seals s order by s.id desc limit 1) as last_hash
from audit_chain c
group by c.source
order by c.source;
