CREATE TABLE "flow_configurations" (
	"organization_id" uuid NOT NULL,
	"hash" text NOT NULL,
	"configuration" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flow_configurations_organization_id_hash_pk" PRIMARY KEY("organization_id","hash")
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "configuration_hash" text;--> statement-breakpoint
ALTER TABLE "flow_configurations" ADD CONSTRAINT "flow_configurations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Runs so far carried their configuration: each distinct one is stored once, named by the hash of its text.
UPDATE "runs" SET "configuration_hash" = encode(sha256(convert_to("configuration"::text, 'UTF8')), 'hex');--> statement-breakpoint
INSERT INTO "flow_configurations" ("organization_id", "hash", "configuration")
  SELECT DISTINCT ON ("organization_id", "configuration_hash") "organization_id", "configuration_hash", "configuration"
  FROM "runs"
ON CONFLICT DO NOTHING;
