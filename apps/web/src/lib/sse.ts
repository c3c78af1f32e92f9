/** One server-sent event: its `event:` name ('message' when none) and its `data:` text. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** A data payload that stands on its own: the end marker or one JSON value. */
function complete(data: string): boolean {
  if (data === '[DONE]') return true;
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}

/**
 * An incremental SSE parser: feed it decoded text in pieces of any size, get whole events back.
 * Events are the standard blank-line separated blocks (`event:`, `data:`, `id:`, `:` comments; CRLF,
 * CR or LF line ends). Tolerant of line-separated streams too: a `data:` line that is complete JSON
 * (or `[DONE]`) is delivered at once without waiting for the blank line, and a bare JSON line (no
 * `data:` field) counts as a data line.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;

  push(text: string): SseMessage[] {
    const out: SseMessage[] = [];
    this.buffer += text;
    let start = 0;
    for (;;) {
      let end = start;
      while (end < this.buffer.length && this.buffer[end] !== '\n' && this.buffer[end] !== '\r') end++;
      if (end >= this.buffer.length) break;
      // A CR at the very end may be the first half of a CRLF: wait for the next piece.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, end), out);
      start = this.buffer[end] === '\r' && this.buffer[end + 1] === '\n' ? end + 2 : end + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** The stream ended: whatever is pending becomes the last event. */
  end(): SseMessage[] {
    const out: SseMessage[] = [];
    const rest = this.buffer.replace(/\r$/, '');
    this.buffer = '';
    if (rest) this.line(rest, out);
    this.dispatch(out);
    return out;
  }

  private line(line: string, out: SseMessage[]) {
    if (line === '') return this.dispatch(out);
    if (line.startsWith(':')) return;
    let field: string;
    let value: string;
    if (line.startsWith('{') || line.startsWith('[')) {
      field = 'data';
      value = line;
    } else {
      const colon = line.indexOf(':');
      field = colon === -1 ? line : line.slice(0, colon);
      value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
    }
    if (field === 'data') {
      this.data.push(value);
      if (complete(this.data.join('\n'))) this.dispatch(out);
    } else if (field === 'event') {
      this.event = value;
    } else if (field === 'id') {
      this.id = value;
    }
  }

  private dispatch(out: SseMessage[]) {
    if (this.data.length > 0) {
      out.push({
        event: this.event || 'message',
        data: this.data.join('\n'),
        ...(this.id === undefined ? {} : { id: this.id }),
      });
    }
    this.data = [];
    this.event = '';
  }
}

/**
 * Reads a fetch Response body as server-sent events, decoding UTF-8 across chunk boundaries.
 * Stopping the loop early (break, return, an exception) cancels the body. Aborting the fetch makes
 * the read reject with the abort error, which passes through.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    finished = true;
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
