ALTER TABLE "chatbots" ADD COLUMN "published_version" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "feedback" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "feedback_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_feedback_check" CHECK ("messages"."feedback" IN ('up', 'down'));--> statement-breakpoint
UPDATE "chatbots" SET "published_version" = "config_version" WHERE "is_published";
