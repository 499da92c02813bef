CREATE TABLE "list_settings" (
	"user_id" uuid NOT NULL,
	"list_key" text NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "list_settings_user_id_list_key_pk" PRIMARY KEY("user_id","list_key")
);
--> statement-breakpoint
ALTER TABLE "list_settings" ADD CONSTRAINT "list_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "list_settings_user_idx" ON "list_settings" USING btree ("user_id","updated_at");