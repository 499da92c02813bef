CREATE TABLE "meet_relay_members" (
	"entry_id" uuid NOT NULL,
	"athlete_id" uuid NOT NULL,
	"leg" smallint,
	CONSTRAINT "meet_relay_members_entry_id_athlete_id_pk" PRIMARY KEY("entry_id","athlete_id")
);
--> statement-breakpoint
ALTER TABLE "meet_entries" ALTER COLUMN "athlete_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "meet_entries" ADD COLUMN "kind" text DEFAULT 'athlete' NOT NULL;--> statement-breakpoint
ALTER TABLE "meet_entries" ADD COLUMN "team_name" text;--> statement-breakpoint
ALTER TABLE "meet_entries" ADD COLUMN "bib" text;--> statement-breakpoint
ALTER TABLE "meet_events" ADD COLUMN "relay_legs" smallint DEFAULT 4 NOT NULL;--> statement-breakpoint
ALTER TABLE "meet_relay_members" ADD CONSTRAINT "meet_relay_members_entry_id_meet_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."meet_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meet_relay_members" ADD CONSTRAINT "meet_relay_members_athlete_id_meet_athletes_id_fk" FOREIGN KEY ("athlete_id") REFERENCES "public"."meet_athletes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "meet_relay_members_leg_uq" ON "meet_relay_members" USING btree ("entry_id","leg");--> statement-breakpoint
CREATE INDEX "meet_relay_members_athlete_idx" ON "meet_relay_members" USING btree ("athlete_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meet_entries_team_uq" ON "meet_entries" USING btree ("event_id","team_name");--> statement-breakpoint
CREATE UNIQUE INDEX "meet_entries_bib_uq" ON "meet_entries" USING btree ("meet_id","bib");--> statement-breakpoint
ALTER TABLE "meet_entries" ADD CONSTRAINT "meet_entries_kind_ck" CHECK (("meet_entries"."kind" = 'athlete') = ("meet_entries"."athlete_id" is not null) and ("meet_entries"."kind" = 'team') = ("meet_entries"."team_name" is not null and "meet_entries"."bib" is not null));