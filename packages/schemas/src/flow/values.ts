import { z } from 'zod';
import { inputFieldType } from '../chat';

/**
 * A reference to another node's output: `{{#node_id.output_name#}}`, optionally followed by a path into
 * the value (`{{#llm_ab12.result.items.0.name#}}`). Group 1 is the node id, group 2 the output and path.
 */
export const REFERENCE_SOURCE = String.raw`\{\{#([A-Za-z0-9_-]+)\.([^#{}]+?)#\}\}`;

/** Builds the `{{#node.output#}}` text for a node id and an output name (or path). */
export const referenceTo = (nodeId: string, output: string): string => `{{#${nodeId}.${output}#}}`;

/** A file passed between nodes: its bytes as a data: URL, or an http(s) URL. */
export const fileValue = z.object({
  name: z.string().max(500),
  mimeType: z.string().max(200),
  dataUrl: z.string().optional(),
  url: z.string().optional(),
  size: z.number().int().min(0).optional(),
});
export type FileValue = z.infer<typeof fileValue>;

/** A piece of text with metadata, as loaders, splitters and vector stores pass it on. */
export const flowDocument = z.object({
  pageContent: z.string(),
  metadata: z.record(z.string(), z.unknown()).default(() => ({})),
});
export type FlowDocument = z.infer<typeof flowDocument>;

/** One custom field of the input node: the run's inputs are checked and coerced against these. */
export const inputCustomField = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: 'This field is required' })
    .max(100)
    .regex(/^[^.#{}]+$/, { error: 'A field name cannot contain ".", "#", "{" or "}"' }),
  type: inputFieldType.default('string'),
  isMandatory: z.boolean().default(false),
});
export type InputCustomField = z.infer<typeof inputCustomField>;
