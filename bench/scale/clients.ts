// The bench's clients: each follows its run to the end over server-sent events and, when its API
// process dies under it, resumes on the other one with Last-Event-ID, as a browser behind a load
// balancer would.

export interface Apis {
  /** The API for request `i`: alternating while both live, the survivor after the kill. */
  pick(i: number): string;
  /** The other API than `base` (the survivor after the kill). */
  other(base: string): string;
}

export interface Outcome {
  /** Heard the run's end on its first connection, after a resume elsewhere, or not at all. */
  how: 'completed' | 'resumed' | 'lost';
  runId: string | null;
  end: string | null;
}

interface Read {
  runId: string | null;
  lastId: string | null;
  end: 'execution_completed' | 'execution_error' | null;
  done: boolean;
}

/** Reads a run stream to its end or until the connection breaks; never throws for a broken stream. */
async function follow(res: Response, known: { runId: string | null; lastId: string | null }): Promise<Read> {
  const read: Read = { ...known, end: null, done: false };
  if (!res.ok || !res.body) return read;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return read;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let id: string | null = null;
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) id = line.slice(4);
          if (line.startsWith('data: ')) data = line.slice(6);
        }
        if (data === '[DONE]') {
          read.done = true;
          return read;
        }
        const event = JSON.parse(data) as { type: string; run_id?: string; last_event_id?: string | null };
        if (id) read.lastId = id;
        if (event.run_id) read.runId = event.run_id;
        if (event.type === 'execution_completed' || event.type === 'execution_error') read.end = event.type;
      }
    }
  } catch {
    return read; // the API went away mid-stream
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Answers refused with 503 (a dependency or the pool too slow under load) or 429, then retried. */
export const refusals: Record<string, number> = {};

/**
 * POSTs as a client behind a load balancer would: a refused connection goes to the other API, a 503 or
 * 429 is retried after its Retry-After (at most 5 s). Answers the response and the API that gave it.
 */
async function post(apis: Apis, first: string, path: string, init: RequestInit) {
  let base = first;
  for (let attempt = 0; attempt < 12; attempt++) {
    const res = await request(`${base}${path}`, { method: 'POST', ...init });
    if (res && res.status !== 503 && res.status !== 429) return { res, base };
    if (res) {
      refusals[res.status] = (refusals[res.status] ?? 0) + 1;
      const wait = Math.min(5, Number(res.headers.get('retry-after') ?? 1)) * 1000;
      await res.body?.cancel();
      await new Promise((r) => setTimeout(r, wait));
    } else {
      base = apis.other(base);
    }
  }
  return { res: null, base };
}

const sse = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'text/event-stream' });

async function request(url: string, init: RequestInit): Promise<Response | null> {
  try {
    return await fetch(url, init);
  } catch {
    return null; // connection refused or reset: that API is gone
  }
}

/** Re-attaches to a run on another API until its end is heard (a few tries: the survivor may be busy). */
async function resume(apis: Apis, from: string, token: string, read: Read): Promise<Read> {
  let base = apis.other(from);
  for (let attempt = 0; attempt < 20 && read.runId && !read.end; attempt++) {
    const res = await request(`${base}/runs/${read.runId}/events`, {
      headers: { ...sse(token), ...(read.lastId ? { 'last-event-id': read.lastId } : {}) },
    });
    if (res) read = await follow(res, read);
    if (!read.end) await new Promise((r) => setTimeout(r, 500));
    base = apis.other(base);
  }
  return read;
}

/** One workflow run: started, then followed to its end. */
export async function workflowRun(apis: Apis, i: number, token: string, chatbot: string): Promise<Outcome> {
  const { res, base } = await post(apis, apis.pick(i), `/chatbots/${chatbot}/runs`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: { topic: `run ${i}` } }),
  });
  if (res?.status !== 201) return { how: 'lost', runId: null, end: null };
  const runId = ((await res.json()) as { run_id: string }).run_id;
  const first = await request(`${base}/runs/${runId}/events`, { headers: sse(token) });
  let read: Read = first
    ? await follow(first, { runId, lastId: null })
    : { runId, lastId: null, end: null, done: false };
  if (read.end) return { how: 'completed', runId, end: read.end };
  read = await resume(apis, base, token, read);
  return { how: read.end ? 'resumed' : 'lost', runId, end: read.end };
}

/** One chat message to a chatflow, streamed in the same request, followed to the answer. */
export async function chatStream(
  apis: Apis,
  i: number,
  token: string,
  conversation: string,
): Promise<Outcome> {
  const { res, base } = await post(
    apis,
    apis.pick(i),
    `/chat-interface/conversations/${conversation}/chatflow/message`,
    {
      headers: { ...sse(token), 'content-type': 'application/json' },
      body: JSON.stringify({ input_data: { query: `chat ${i}` } }),
    },
  );
  if (!res?.ok) return { how: 'lost', runId: null, end: null };
  let read = await follow(res, { runId: null, lastId: null });
  if (read.end) return { how: 'completed', runId: read.runId, end: read.end };
  if (!read.runId) {
    // The API died before the stream named the run: its answer is read from the conversation.
    const answered = await answeredRun(apis.other(base), token, conversation);
    return { how: answered ? 'resumed' : 'lost', runId: null, end: answered ? 'history' : null };
  }
  read = await resume(apis, base, token, read);
  return { how: read.end ? 'resumed' : 'lost', runId: read.runId, end: read.end };
}

/** Waits (a while) for the conversation's answer; answers whether it came. */
async function answeredRun(base: string, token: string, conversation: string): Promise<boolean> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const res = await request(`${base}/chat-interface/conversations/${conversation}/history`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res?.ok) {
      const { history } = (await res.json()) as { history: { role: string }[] };
      if (history.at(-1)?.role === 'assistant') return true;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}
