CREATE TABLE "heart_rate_dropped" (
	"lesson_id" uuid NOT NULL,
	"band" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "heart_rate_dropped_lesson_id_band_at_pk" PRIMARY KEY("lesson_id","band","at")
);
--> statement-breakpoint
ALTER TABLE "heart_rate_dropped" ADD CONSTRAINT "heart_rate_dropped_lesson_id_lessons_id_fk" FOREIGN KEY ("lesson_id") REFERENCES "public"."lessons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "heart_rate_dropped_at_idx" ON "heart_rate_dropped" USING btree ("at");