-- Triggers, after the functions they call. The audit tables and the chain's own are append-only:
-- UPDATE, DELETE and TRUNCATE are refused whoever runs them (a partition of decisions too).
CREATE OR REPLACE TRIGGER audit_chain_append_only BEFORE DELETE OR UPDATE ON public.audit_chain FOR EACH ROW EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER audit_chain_no_truncate BEFORE TRUNCATE ON public.audit_chain FOR EACH STATEMENT EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER audit_seals_append_only BEFORE DELETE OR UPDATE ON public.audit_seals FOR EACH ROW EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER audit_seals_no_truncate BEFORE TRUNCATE ON public.audit_seals FOR EACH STATEMENT EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER audit_sources_append_only BEFORE DELETE OR UPDATE ON public.audit_sources FOR EACH ROW EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER audit_sources_no_truncate BEFORE TRUNCATE ON public.audit_sources FOR EACH STATEMENT EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER decisions_append_only BEFORE DELETE OR UPDATE ON public.decisions FOR EACH ROW EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER decisions_default_no_truncate BEFORE TRUNCATE ON public.decisions_default FOR EACH STATEMENT EXECUTE FUNCTION public.countersign_refuse_change();

-- No decision more than a day ahead in the default partition (decisions_default_refuse_ahead).
CREATE OR REPLACE TRIGGER decisions_default_not_ahead BEFORE INSERT ON public.decisions_default FOR EACH ROW EXECUTE FUNCTION public.decisions_default_refuse_ahead();

-- Each name's first final decision, in final_decisions (final_decisions_record).
CREATE OR REPLACE TRIGGER decisions_final_recorded AFTER INSERT ON public.decisions FOR EACH ROW WHEN (((new.decision = ANY (ARRAY['allow'::text, 'deny'::text])) AND (NOT new.replayed) AND (new.replay_of IS NULL))) EXECUTE FUNCTION public.final_decisions_record();

CREATE OR REPLACE TRIGGER decisions_no_truncate BEFORE TRUNCATE ON public.decisions FOR EACH STATEMENT EXECUTE FUNCTION public.countersign_refuse_change();

-- Only signed repeats reach the function: any other decision costs the WHEN clause alone.
CREATE OR REPLACE TRIGGER decisions_repeat_after_void BEFORE INSERT ON public.decisions FOR EACH ROW WHEN ((new.replayed AND (new.decision = 'allow'::text))) EXECUTE FUNCTION public.decisions_refuse_repeat_after_void();

-- References to a decision, checked at insert since no foreign key can point at decisions.id.
CREATE OR REPLACE TRIGGER decisions_replay_of_exists BEFORE INSERT ON public.decisions FOR EACH ROW WHEN ((new.replay_of IS NOT NULL)) EXECUTE FUNCTION public.decisions_replay_of_exists();

CREATE OR REPLACE TRIGGER event_effects_append_only BEFORE DELETE OR UPDATE ON public.event_effects FOR EACH ROW EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER event_effects_no_truncate BEFORE TRUNCATE ON public.event_effects FOR EACH STATEMENT EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER events_append_only BEFORE DELETE OR UPDATE ON public.events FOR EACH ROW EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER events_no_truncate BEFORE TRUNCATE ON public.events FOR EACH STATEMENT EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER final_decisions_append_only BEFORE DELETE OR UPDATE ON public.final_decisions FOR EACH ROW EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER final_decisions_no_truncate BEFORE TRUNCATE ON public.final_decisions FOR EACH STATEMENT EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER review_actions_append_only BEFORE DELETE OR UPDATE ON public.review_actions FOR EACH ROW EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER review_actions_no_truncate BEFORE TRUNCATE ON public.review_actions FOR EACH STATEMENT EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER reviews_append_only BEFORE DELETE OR UPDATE ON public.reviews FOR EACH ROW EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER reviews_no_truncate BEFORE TRUNCATE ON public.reviews FOR EACH STATEMENT EXECUTE FUNCTION public.countersign_refuse_change();

CREATE OR REPLACE TRIGGER reviews_opened_by_exists BEFORE INSERT ON public.reviews FOR EACH ROW EXECUTE FUNCTION public.decisions_reference_exists('opened_by');

-- Once per statement over the inserted charges, not once per charge.
CREATE OR REPLACE TRIGGER velocity_charges_decision_exists AFTER INSERT ON public.velocity_charges REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION public.velocity_charges_decision_exists();

-- A charge keeps its history (velocity_charges_guard).
CREATE OR REPLACE TRIGGER velocity_charges_history BEFORE DELETE OR UPDATE ON public.velocity_charges FOR EACH ROW EXECUTE FUNCTION public.velocity_charges_guard();

CREATE OR REPLACE TRIGGER velocity_charges_no_truncate BEFORE TRUNCATE ON public.velocity_charges FOR EACH STATEMENT EXECUTE FUNCTION public.velocity_charges_guard();

CREATE OR REPLACE TRIGGER velocity_voids_append_only BEFORE DELETE OR UPDATE ON public.velocity_voids FOR EACH ROW EXECUTE FUNCTION public.countersign_refuse_change();

-- Who ran a void is the server's session_user (velocity_voids_database_user).
CREATE OR REPLACE TRIGGER velocity_voids_database_user BEFORE INSERT ON public.velocity_voids FOR EACH ROW EXECUTE FUNCTION public.velocity_voids_database_user();

CREATE OR REPLACE TRIGGER velocity_voids_no_truncate BEFORE TRUNCATE ON public.velocity_voids FOR EACH STATEMENT EXECUTE FUNCTION public.countersign_refuse_change();
