import { isRecord } from './exchange';

/** Lower-cased runs of letters and digits: the unit embeddings and rerank scores are built from. */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Stream pieces, one per word, each keeping the whitespace around it so they join back to `text`. */
export function wordChunks(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}

export const countWords = (text: string): number => wordChunks(text).length;

/** Cuts a string into at most `parts` slices, so clients must reassemble streamed tool arguments. */
export function slices(text: string, parts = 3): string[] {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

const IMAGE_PARTS = new Set(['image_url', 'image', 'input_image']);

/**
 * The text of an OpenAI or Anthropic message content (a string or an array of parts) and how many
 * images it carries; Anthropic tool results count as text so the echo shows what the tool returned.
 */
export function contentText(content: unknown): { text: string; images: number } {
  if (typeof content === 'string') return { text: content, images: 0 };
  if (!Array.isArray(content)) return { text: '', images: 0 };
  const texts: string[] = [];
  let images = 0;
  for (const part of content) {
    if (!isRecord(part)) continue;
    if (typeof part.type === 'string' && IMAGE_PARTS.has(part.type)) images += 1;
    else if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (part.type === 'tool_result') {
      const inner = contentText(part.content);
      texts.push(inner.text);
      images += inner.images;
    }
  }
  return { text: texts.join(' '), images };
}

/** Words of every message (and the system prompt), standing in for prompt tokens. */
export function promptWords(messages: unknown[], system?: unknown): number {
  const contents = [system, ...messages.map((message) => (isRecord(message) ? message.content : undefined))];
  return contents.reduce<number>((sum, content) => sum + countWords(contentText(content).text), 0);
}

/** The deterministic answer: `Echo: ` + the last user message, or the tool result when that came last. */
export function echoAnswer(messages: unknown[]): string {
  const last = messages.at(-1);
  const source =
    isRecord(last) && last.role === 'tool'
      ? last
      : messages.findLast((message) => isRecord(message) && message.role === 'user');
  const { text, images } = contentText(isRecord(source) ? source.content : undefined);
  return `Echo: ${text}${images > 0 ? ` [${images} image(s)]` : ''}`;
}
