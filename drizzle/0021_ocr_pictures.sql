ALTER TABLE "rag_documents" ADD COLUMN "ocr_pictures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Before this column, a Word, PowerPoint or OpenDocument file's pictures read by OCR were counted in ocr_pages.
UPDATE "rag_documents" SET "ocr_pictures" = "ocr_pages", "ocr_pages" = 0 WHERE "ocr_pages" > 0 AND coalesce("type", '') NOT IN ('pdf', 'image');
