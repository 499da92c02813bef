/**
 * The fast bulk writes (the score import's INSERT … SELECT from its stage, the ingest of device records) check their
 * references set-wise and lock them first; where the role may, they then skip the per-row foreign-key triggers by
 * `session_replication_role = replica` for the rest of the transaction (the rollup and history triggers are ENABLE
 * ALWAYS and still run). A superuser may; so may a plain role granted `SET ON PARAMETER session_replication_role`
 * (PostgreSQL 15+, docs/deploy.md "The database role"); any other role keeps the per-row checks, which are only slower.
 * One statement each: it answers a row when the setting was changed.
 */
export const SKIP_FK_TRIGGERS = `select set_config('session_replication_role', 'replica', true) as role where has_parameter_privilege('session_replication_role', 'SET')`;
/** Back to the normal triggers, within the same transaction (after SKIP_FK_TRIGGERS answered a row). */
export const RESTORE_FK_TRIGGERS = `select set_config('session_replication_role', 'origin', true) as role`;
