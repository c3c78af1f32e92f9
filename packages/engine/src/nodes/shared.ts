import type { NodeFields, NodeType } from '@atelier/schemas';
import { CapabilityError } from '../errors';
import type { EngineServices, ImageServiceResult, KnowledgeServices } from '../services';
import type { NodeImplementation } from '../types';

export type Impl<T extends NodeType> = NodeImplementation<NodeFields<T>>;

/** A knowledge method, or a clear error when the host does not offer it. */
export function knowledge<K extends keyof KnowledgeServices>(
  services: EngineServices,
  method: K,
  label: string,
): NonNullable<KnowledgeServices[K]> {
  const found = services.knowledge?.[method];
  if (!found) {
    throw new CapabilityError(
      `${label} requires the knowledge capability (${method}), which this server does not provide.`,
    );
  }
  return found.bind(services.knowledge) as NonNullable<KnowledgeServices[K]>;
}

/** Comma-separated text as a list of trimmed, non-empty items. */
export const commaList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** The generated images as URLs (data: URLs for base64 answers), and the first revised prompt. */
export function imageSources(result: ImageServiceResult): { sources: string[]; revised: string } {
  const sources = result.images.flatMap((image) =>
    image.url ? [image.url] : image.b64 ? [`data:image/png;base64,${image.b64}`] : [],
  );
  if (sources.length === 0) throw new Error('The image model gave no image.');
  return { sources, revised: result.images[0]?.revisedPrompt ?? '' };
}
