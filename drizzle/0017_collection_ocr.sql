ALTER TABLE "rag_collections" ADD COLUMN "ocr_model_id" uuid;--> statement-breakpoint
ALTER TABLE "rag_documents" ADD COLUMN "ocr_pages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rag_collections" ADD CONSTRAINT "rag_collections_ocr_model_id_models_id_fk" FOREIGN KEY ("ocr_model_id") REFERENCES "public"."models"("id") ON DELETE set null ON UPDATE no action;