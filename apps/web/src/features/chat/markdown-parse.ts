/**
 * A small Markdown reader for chat answers: the result is plain data rendered as React elements
 * (text is never interpreted as HTML). Blocks: paragraphs with line breaks, fenced code (an
 * unclosed fence runs to the end, as while streaming), headings, bullet and numbered lists, quotes,
 * rules. Inline: `code`, **bold**, *italic* / _italic_, links and bare URLs (http and https only).
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong' | 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'break' };

export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'rule' };

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)\s*$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

const startsBlock = (line: string) =>
  FENCE.test(line) ||
  HEADING.test(line) ||
  RULE.test(line) ||
  BULLET.test(line) ||
  NUMBERED.test(line) ||
  QUOTE.test(line);

export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(marker)) body.push(lines[i++]!);
      i++; // the closing fence
      blocks.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]! });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: 'rule' });
      i++;
      continue;
    }
    const ordered = NUMBERED.exec(line);
    if (ordered || BULLET.test(line)) {
      const pattern = ordered ? NUMBERED : BULLET;
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const item = pattern.exec(current);
        if (item) items.push(item[ordered ? 2 : 1]!);
        else if (current.trim() !== '' && /^\s+/.test(current) && items.length > 0) {
          items[items.length - 1] += `\n${current.trim()}`;
        } else break;
        i++;
      }
      blocks.push({ kind: 'list', ordered: Boolean(ordered), start: Number(ordered?.[1] ?? 1), items });
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) quoted.push(QUOTE.exec(lines[i++]!)![1]!);
      blocks.push({ kind: 'quote', text: quoted.join('\n') });
      continue;
    }
    const paragraph: string[] = [line];
    i++;
    while (i < lines.length && lines[i]!.trim() !== '' && !startsBlock(lines[i]!))
      paragraph.push(lines[i++]!);
    blocks.push({ kind: 'paragraph', text: paragraph.join('\n') });
  }
  return blocks;
}

/** Only web links; anything else (javascript:, data:, relative) stays text. */
export const safeHref = (href: string): string | null => {
  if (!/^https?:\/\//i.test(href)) return null;
  try {
    return new URL(href).href;
  } catch {
    return null;
  }
};

const INLINE =
  /`([^`\n]+)`|\*\*(?=\S)([\s\S]*?\S)\*\*|(?<![\w*])\*(?=[^\s*])([\s\S]*?[^\s*])\*(?![\w*])|(?<!\w)_(?=[^\s_])([\s\S]*?[^\s_])_(?!\w)|\[([^\]\n]+)\]\(\s*<?([^)\s>]+)>?\s*\)|(https?:\/\/[^\s<>]*[^\s<>.,:;"'!?)\]])|\n/g;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  const pushText = (value: string) => {
    if (!value) return;
    const previous = out.at(-1);
    if (previous?.kind === 'text') previous.text += value;
    else out.push({ kind: 'text', text: value });
  };
  for (const match of text.matchAll(INLINE)) {
    const at = match.index;
    pushText(text.slice(last, at));
    last = at + match[0].length;
    const [whole, code, strong, em, em2, label, href, bare] = match;
    if (code !== undefined) out.push({ kind: 'code', text: code });
    else if (strong !== undefined) out.push({ kind: 'strong', children: parseInline(strong) });
    else if (em !== undefined || em2 !== undefined)
      out.push({ kind: 'em', children: parseInline((em ?? em2)!) });
    else if (label !== undefined) {
      const safe = safeHref(href!);
      if (safe) out.push({ kind: 'link', href: safe, children: parseInline(label) });
      else pushText(label);
    } else if (bare !== undefined) {
      const safe = safeHref(bare);
      if (safe) out.push({ kind: 'link', href: safe, children: [{ kind: 'text', text: bare }] });
      else pushText(bare);
    } else if (whole === '\n') out.push({ kind: 'break' });
  }
  pushText(text.slice(last));
  return out;
}
