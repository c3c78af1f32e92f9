CREATE TABLE "rag_document_ocr" (
	"document_id" uuid NOT NULL,
	"model_id" uuid NOT NULL,
	"image_sha256" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rag_document_ocr_document_id_model_id_image_sha256_pk" PRIMARY KEY("document_id","model_id","image_sha256")
);
--> statement-breakpoint
ALTER TABLE "rag_document_ocr" ADD CONSTRAINT "rag_document_ocr_document_id_rag_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."rag_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rag_document_ocr" ADD CONSTRAINT "rag_document_ocr_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE cascade ON UPDATE no action;