CREATE TABLE "auth_epoch" (
	"id" smallint PRIMARY KEY NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- custom: the auth epoch's one row, and statement-level triggers that bump it on every write to what a session or
-- permission check reads, so every instance's in-process cache (server/lib/auth-cache.ts) sees the change on its next
-- request whichever code (or a hand-run SQL) made it. Inserts of sessions do not bump: a new token is a cache miss.
INSERT INTO "auth_epoch" ("id", "value") VALUES (1, 0);--> statement-breakpoint
CREATE FUNCTION "bump_auth_epoch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "auth_epoch" SET "value" = "value" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "sessions_auth_epoch" AFTER UPDATE OR DELETE OR TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();--> statement-breakpoint
CREATE TRIGGER "users_auth_epoch" AFTER UPDATE OF "enabled", "must_change_password" OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();--> statement-breakpoint
CREATE TRIGGER "orgs_auth_epoch" AFTER UPDATE OR DELETE OR TRUNCATE ON "orgs" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();--> statement-breakpoint
CREATE TRIGGER "memberships_auth_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "memberships" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();--> statement-breakpoint
CREATE TRIGGER "membership_roles_auth_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "membership_roles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();--> statement-breakpoint
CREATE TRIGGER "roles_auth_epoch" AFTER UPDATE OR DELETE OR TRUNCATE ON "roles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();--> statement-breakpoint
CREATE TRIGGER "role_menus_auth_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "role_menus" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();--> statement-breakpoint
CREATE TRIGGER "menus_auth_epoch" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "menus" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();
