ALTER TABLE "runs" ALTER COLUMN "configuration_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_configuration_fk" FOREIGN KEY ("organization_id","configuration_hash") REFERENCES "public"."flow_configurations"("organization_id","hash") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" DROP COLUMN "configuration";