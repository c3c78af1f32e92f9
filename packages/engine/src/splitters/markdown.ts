export interface HeaderChunk {
  content: string;
  metadata: Record<string, string>;
}

export interface MarkdownSplitOptions {
  /** Pairs of a marker ('#', '##'…) and the metadata key that keeps the header's text. */
  headers: readonly (readonly [string, string])[];
  returnEachLine: boolean;
  stripHeaders: boolean;
}

const sameMetadata = (a: Record<string, string>, b: Record<string, string>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
};

/**
 * Markdown header splitting, after LangChain's MarkdownHeaderTextSplitter: each section becomes a chunk
 * whose metadata holds the headers above it; fenced code blocks are never split on.
 */
export function markdownSplit(text: string, options: MarkdownSplitOptions): HeaderChunk[] {
  const headers = [...options.headers].sort((a, b) => b[0].length - a[0].length);
  const lines: HeaderChunk[] = [];
  let content: string[] = [];
  let active: { level: number; name: string; text: string }[] = [];
  const metadata = () => Object.fromEntries(active.map((h) => [h.name, h.text]));
  let current = metadata();
  let fence: string | null = null;
  const pushContent = () => {
    if (content.length > 0) lines.push({ content: content.join('\n'), metadata: current });
    content = [];
  };

  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (fence === null && (line.startsWith('```') || line.startsWith('~~~'))) {
      if (!(line.startsWith('```') && line.slice(3).includes('```'))) fence = line.slice(0, 3);
    } else if (fence !== null && line.startsWith(fence)) {
      content.push(line);
      fence = null;
      continue;
    }
    if (fence !== null) {
      content.push(line);
      continue;
    }
    const header = headers.find(
      ([marker]) => line.startsWith(marker) && (line.length === marker.length || line[marker.length] === ' '),
    );
    if (header) {
      const [marker, name] = header;
      const level = marker.length;
      active = active.filter((h) => h.level < level);
      active.push({ level, name, text: line.slice(marker.length).trim() });
      pushContent();
      current = metadata();
      if (!options.stripHeaders) content.push(line);
    } else if (line !== '') {
      content.push(line);
    } else {
      pushContent();
    }
  }
  pushContent();
  if (options.returnEachLine) return lines;

  const chunks: HeaderChunk[] = [];
  for (const line of lines) {
    const last = chunks[chunks.length - 1];
    if (last && sameMetadata(last.metadata, line.metadata)) {
      last.content += `  \n${line.content}`;
    } else if (
      last &&
      !options.stripHeaders &&
      Object.keys(last.metadata).length < Object.keys(line.metadata).length &&
      (last.content.split('\n').pop() ?? '').startsWith('#')
    ) {
      // A header line alone: it joins the section it introduces.
      last.content += `  \n${line.content}`;
      last.metadata = line.metadata;
    } else {
      chunks.push({ ...line });
    }
  }
  return chunks;
}
