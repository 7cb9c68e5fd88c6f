CREATE TABLE "import_uploads" (
	"token" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"file_name" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_images" (
	"name" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "import_uploads" ADD CONSTRAINT "import_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_uploads_user_idx" ON "import_uploads" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "import_uploads_created_idx" ON "import_uploads" USING btree ("created_at");