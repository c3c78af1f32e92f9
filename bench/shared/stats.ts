export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface StreamTimes {
  ttft: number;
  gaps: number[];
  text: string;
}

/** Reads an SSE body, calling `onData` for each `data:` payload with its arrival time. */
export async function readEvents(res: Response, onData: (data: string, at: number) => void): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    const at = performance.now();
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      for (const line of block.split('\n')) if (line.startsWith('data: ')) onData(line.slice(6), at);
    }
  }
}
