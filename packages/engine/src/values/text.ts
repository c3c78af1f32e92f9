const decoder = new TextDecoder('utf-8');

export const decodeText = (bytes: Uint8Array): string => decoder.decode(bytes);

/** JSON when it parses, else the text itself. */
export function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
