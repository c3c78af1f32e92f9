ALTER TABLE "chatbots" ADD COLUMN "published" jsonb;--> statement-breakpoint
UPDATE "chatbots" SET "published" = jsonb_build_object(
  'instruction', "instruction",
  'modelId', "model_id",
  'fallbackModelId', "fallback_model_id",
  'knowledgeCollectionIds', "knowledge_collection_ids",
  'storeConversations', "store_conversations",
  'configuration', "configuration"
) WHERE "is_published";
