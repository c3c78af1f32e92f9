DROP INDEX "inference_logs_org_created_idx";--> statement-breakpoint
DROP INDEX "inference_logs_chatbot_created_idx";--> statement-breakpoint
CREATE INDEX "page_views_user_created_idx" ON "page_views" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_org_created_idx" ON "conversations" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_org_updated_idx" ON "conversations" USING btree ("organization_id","updated_at");--> statement-breakpoint
CREATE INDEX "inference_logs_workspace_created_idx" ON "inference_logs" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "inference_logs_user_created_idx" ON "inference_logs" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "inference_logs_org_created_idx" ON "inference_logs" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "inference_logs_chatbot_created_idx" ON "inference_logs" USING btree ("chatbot_id","created_at","id");