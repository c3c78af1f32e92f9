/**
 * A message's text: its text parts joined by `separator`, images and sources left out (a string is its own
 * text). The one reading of message content as text, for stored messages, requests and histories alike.
 */
export function partsText(
  content: string | null | undefined | readonly { type: string; text?: string }[],
  separator = ' ',
): string {
  if (typeof content === 'string') return content;
  return (content ?? []).flatMap((p) => (p.type === 'text' ? [p.text ?? ''] : [])).join(separator);
}
