-- custom: the roster triggers on students fire in replica mode too, as the class history and change-feed triggers
-- already do: the student import's commit checks its references set-wise and then skips the per-row foreign-key
-- checks with session_replication_role = replica (server/db/replication-role.ts), and the views' roster must still
-- follow the students it writes.
ALTER TABLE "students" ENABLE ALWAYS TRIGGER "students_roster_insert";--> statement-breakpoint
ALTER TABLE "students" ENABLE ALWAYS TRIGGER "students_roster_update";--> statement-breakpoint
ALTER TABLE "students" ENABLE ALWAYS TRIGGER "students_roster_delete";
