-- The operation log cannot be edited through the product or by a stray statement (docs/decisions/050-audit-hash-chain.md):
-- a row may only be sealed once (its chain columns set while its content stays the same); deleting rows needs the
-- retention purge's setting (tiyu.audit_purge = on, set by that purge's own transaction); TRUNCATE is refused. A chain
-- head only moves forward. Whoever can turn triggers off (a superuser) can still edit rows: the hash chain shows it.
CREATE FUNCTION audit_logs_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		IF current_setting('tiyu.audit_purge', true) = 'on' THEN
			RETURN OLD;
		END IF;
		RAISE EXCEPTION 'operation log rows cannot be deleted' USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF OLD.seq IS NULL AND NEW.seq IS NOT NULL
		AND (NEW.id, NEW.at, NEW.user_id, NEW.account_id, NEW.org_id, NEW.action, NEW.entity, NEW.entity_id, NEW.entity_name)
			IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.user_id, OLD.account_id, OLD.org_id, OLD.action, OLD.entity, OLD.entity_id, OLD.entity_name)
		AND NEW.before IS NOT DISTINCT FROM OLD.before AND NEW.after IS NOT DISTINCT FROM OLD.after THEN
		RETURN NEW;
	END IF;
	RAISE EXCEPTION 'operation log rows cannot be changed' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_logs_guard BEFORE UPDATE OR DELETE ON audit_logs FOR EACH ROW EXECUTE FUNCTION audit_logs_guard();
--> statement-breakpoint
CREATE FUNCTION audit_logs_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'the operation log cannot be truncated' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON audit_logs FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_no_truncate();
--> statement-breakpoint
CREATE FUNCTION audit_chains_forward() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' OR NEW.seq < OLD.seq OR NEW.start_seq < OLD.start_seq THEN
		RAISE EXCEPTION 'an operation log chain only moves forward' USING ERRCODE = 'insufficient_privilege';
	END IF;
	RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_chains_forward BEFORE UPDATE OR DELETE ON audit_chains FOR EACH ROW EXECUTE FUNCTION audit_chains_forward();
