-- custom: a score import looks up each slice's students by registration number, matched case-insensitively
-- (server/modules/physique/physique-import.service.ts), instead of holding every student of the plan in memory;
-- drizzle-kit cannot express an index on an expression.
CREATE INDEX IF NOT EXISTS "students_org_upper_reg_no_idx" ON "students" USING btree ("org_id", upper("reg_no"));
