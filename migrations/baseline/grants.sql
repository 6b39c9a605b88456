GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.address_book_entries TO countersign_writer;

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.address_book_external_wallets TO countersign_writer;

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.address_book_own_addresses TO countersign_writer;

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.address_book_sync TO countersign_writer;

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.address_book_wallets TO countersign_writer;

GRANT SELECT ON TABLE public.audit_chain TO countersign_writer;

GRANT SELECT ON TABLE public.audit_chain TO countersign_auditor;

GRANT SELECT ON TABLE public.audit_seals TO countersign_writer;

GRANT SELECT ON TABLE public.audit_seals TO countersign_auditor;

GRANT SELECT ON TABLE public.audit_sources TO countersign_writer;

GRANT SELECT ON TABLE public.audit_sources TO countersign_auditor;

GRANT SELECT ON TABLE public.decisions TO countersign_writer;

GRANT SELECT ON TABLE public.decisions TO countersign_auditor;

GRANT INSERT(id) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(decided_at) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(transaction_name) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(vault) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(decision) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(sign_transaction) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(http_status) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(replayed) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(replay_of) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(policy_version) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(policy_digest) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(matched_rules) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(reasons) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(facts) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(transaction) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(content_digest) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(request_id) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(duration_ms) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(trace) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(velocity_windows) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(shadow_policy_version) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(shadow_policy_digest) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(shadow_decision) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(shadow_matched_rules) ON TABLE public.decisions TO countersign_writer;

GRANT INSERT(shadow_error) ON TABLE public.decisions TO countersign_writer;

GRANT SELECT,INSERT ON TABLE public.event_effects TO countersign_writer;

GRANT SELECT ON TABLE public.event_effects TO countersign_auditor;

GRANT SELECT ON TABLE public.events TO countersign_writer;

GRANT SELECT ON TABLE public.events TO countersign_auditor;

GRANT INSERT(id) ON TABLE public.events TO countersign_writer;

GRANT INSERT(received_at) ON TABLE public.events TO countersign_writer;

GRANT INSERT(vault) ON TABLE public.events TO countersign_writer;

GRANT INSERT(type) ON TABLE public.events TO countersign_writer;

GRANT INSERT(resource_type) ON TABLE public.events TO countersign_writer;

GRANT INSERT(resource) ON TABLE public.events TO countersign_writer;

GRANT INSERT(new_state) ON TABLE public.events TO countersign_writer;

GRANT INSERT(details) ON TABLE public.events TO countersign_writer;

GRANT INSERT(payload) ON TABLE public.events TO countersign_writer;

GRANT INSERT(body) ON TABLE public.events TO countersign_writer;

GRANT INSERT(signature) ON TABLE public.events TO countersign_writer;

GRANT SELECT ON TABLE public.final_decisions TO countersign_writer;

GRANT SELECT ON TABLE public.final_decisions TO countersign_auditor;

GRANT SELECT ON TABLE public.kysely_migration TO countersign_writer;

GRANT SELECT ON TABLE public.kysely_migration_lock TO countersign_writer;

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.policy_adoptions TO countersign_writer;

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.policy_holders TO countersign_writer;

GRANT SELECT ON TABLE public.review_actions TO countersign_writer;

GRANT SELECT ON TABLE public.review_actions TO countersign_auditor;

GRANT INSERT(id) ON TABLE public.review_actions TO countersign_writer;

GRANT INSERT(at) ON TABLE public.review_actions TO countersign_writer;

GRANT INSERT(transaction_name) ON TABLE public.review_actions TO countersign_writer;

GRANT INSERT(content_digest) ON TABLE public.review_actions TO countersign_writer;

GRANT INSERT(identity) ON TABLE public.review_actions TO countersign_writer;

GRANT INSERT(action) ON TABLE public.review_actions TO countersign_writer;

GRANT INSERT("group") ON TABLE public.review_actions TO countersign_writer;

GRANT INSERT(comment) ON TABLE public.review_actions TO countersign_writer;

GRANT SELECT ON TABLE public.reviews TO countersign_writer;

GRANT SELECT ON TABLE public.reviews TO countersign_auditor;

GRANT INSERT(id) ON TABLE public.reviews TO countersign_writer;

GRANT INSERT(transaction_name) ON TABLE public.reviews TO countersign_writer;

GRANT INSERT(vault) ON TABLE public.reviews TO countersign_writer;

GRANT INSERT(content_digest) ON TABLE public.reviews TO countersign_writer;

GRANT INSERT(opened_at) ON TABLE public.reviews TO countersign_writer;

GRANT INSERT(expires_at) ON TABLE public.reviews TO countersign_writer;

GRANT INSERT(opened_by) ON TABLE public.reviews TO countersign_writer;

GRANT INSERT(initiator) ON TABLE public.reviews TO countersign_writer;

GRANT INSERT(requirements) ON TABLE public.reviews TO countersign_writer;

GRANT INSERT(explanation) ON TABLE public.reviews TO countersign_writer;

GRANT SELECT ON TABLE public.velocity_voids TO countersign_writer;

GRANT SELECT ON TABLE public.velocity_voids TO countersign_auditor;

GRANT INSERT(id) ON TABLE public.velocity_voids TO countersign_writer;

GRANT INSERT(at) ON TABLE public.velocity_voids TO countersign_writer;

GRANT INSERT(transaction_name) ON TABLE public.velocity_voids TO countersign_writer;

GRANT INSERT(charges) ON TABLE public.velocity_voids TO countersign_writer;

GRANT INSERT(operator) ON TABLE public.velocity_voids TO countersign_writer;

GRANT INSERT(reason) ON TABLE public.velocity_voids TO countersign_writer;

GRANT INSERT(database_user) ON TABLE public.velocity_voids TO countersign_writer;

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.velocity_buckets TO countersign_writer;

GRANT SELECT,INSERT,UPDATE ON TABLE public.velocity_charges TO countersign_writer;

GRANT SELECT ON TABLE public.velocity_charges TO countersign_auditor;

GRANT SELECT,INSERT,DELETE,UPDATE ON TABLE public.velocity_groups TO countersign_writer;

GRANT SELECT ON TABLE public.velocity_groups TO countersign_auditor;

GRANT SELECT ON TABLE public.velocity_window_claims TO countersign_writer;

GRANT SELECT ON TABLE public.velocity_window_claims TO countersign_auditor;

ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT,INSERT,DELETE,UPDATE ON TABLES  TO countersign_writer;
