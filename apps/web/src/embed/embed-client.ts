import type { AnswerSource, EmbedConfig } from '@atelier/schemas';
import { finalOutputText } from '@atelier/schemas/final-output';
import { readSse } from '@/lib/sse';

/** A refusal of the embed API: its status and `{detail, code}`. */
export class EmbedError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface EmbedMessage {
  id: string;
  role: 'user' | 'assistant';
  text: string;
  error?: boolean;
  /** Where the answer's context came from (a chatbot answering from its knowledge collections). */
  sources?: AnswerSource[];
}

/** The sources an answer carries, as far as they have the shape the widget shows (else none). */
function sourcesOf(value: unknown): AnswerSource[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (s): s is AnswerSource =>
      typeof s === 'object' &&
      s !== null &&
      typeof (s as AnswerSource).collection_id === 'string' &&
      typeof (s as AnswerSource).excerpt === 'string' &&
      typeof (s as AnswerSource).score === 'number',
  );
}

const BROWSER_KEY = 'atelier-embed:browser';
const conversationKey = (token: string) => `atelier-embed:conversation:${token}`;

/** localStorage, or a memory stand-in where a site's settings block it in frames. */
const memory = new Map<string, string>();
const store = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return memory.get(key) ?? null;
    }
  },
  set(key: string, value: string | null) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      if (value === null) memory.delete(key);
      else memory.set(key, value);
    }
  },
};

/** The browser's random id: the visitor's name for the chat, kept across visits. */
export function browserId(): string {
  let id = store.get(BROWSER_KEY);
  if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
    id = crypto.randomUUID();
    store.set(BROWSER_KEY, id);
  }
  return id;
}

export const savedConversation = (token: string) => store.get(conversationKey(token));
export const saveConversation = (token: string, id: string | null) => store.set(conversationKey(token), id);

async function refusal(res: Response): Promise<EmbedError> {
  const body = (await res.json().catch(() => null)) as { detail?: string; code?: string } | null;
  return new EmbedError(res.status, body?.code ?? 'error', body?.detail ?? res.statusText);
}

/** The embed API of one token, at the address the iframe page was served from (`…/embed/{token}`). */
export function embedClient(token: string, pageUrl: string) {
  const base = new URL('../', pageUrl);
  const url = (path: string) => {
    const u = new URL(`embed/${encodeURIComponent(token)}${path}`, base);
    u.searchParams.set('user', browserId());
    return u.href;
  };
  const getJson = async <T>(path: string): Promise<T> => {
    const res = await fetch(url(path));
    if (!res.ok) throw await refusal(res);
    return (await res.json()) as T;
  };

  return {
    config: () => getJson<EmbedConfig>('/config'),

    async history(conversationId: string): Promise<EmbedMessage[]> {
      const { history } = await getJson<{
        history: {
          id: string;
          role: string;
          content: { type: string; text?: string; sources?: unknown }[];
          error: boolean;
        }[];
      }>(`/conversations/${conversationId}/messages`);
      return history.map((m) => {
        const sources = m.content.flatMap((p) => (p.type === 'sources' ? sourcesOf(p.sources) : []));
        return {
          id: m.id,
          role: m.role === 'user' ? 'user' : 'assistant',
          text: m.content.flatMap((p) => (p.type === 'text' && p.text ? [p.text] : [])).join('\n'),
          ...(m.error ? { error: true } : {}),
          ...(sources.length > 0 ? { sources } : {}),
        };
      });
    },

    /**
     * Sends a message and reads the streamed answer: `onText` gets each piece, `onConversation` the
     * conversation's id, `onSources` the passages the answer is based on (all of them so far, best
     * first); the answer's end resolves, its failure rejects.
     */
    async send(
      message: string,
      conversationId: string | null,
      sink: {
        onConversation(id: string): void;
        onText(text: string): void;
        onSources(sources: AnswerSource[]): void;
        onFinal(text: string): void;
      },
      signal: AbortSignal,
    ): Promise<void> {
      const res = await fetch(url('/messages'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message, ...(conversationId ? { conversation_id: conversationId } : {}) }),
        signal,
      });
      if (!res.ok || !res.body) throw await refusal(res);
      for await (const { data } of readSse(res.body)) {
        if (data === '[DONE]') return;
        const event = JSON.parse(data) as Record<string, unknown>;
        switch (event.type) {
          case 'start':
          case 'run_started':
            if (typeof event.conversation_id === 'string') sink.onConversation(event.conversation_id);
            break;
          case 'text':
            if (typeof event.text === 'string') sink.onText(event.text);
            break;
          case 'sources':
            sink.onSources(sourcesOf(event.sources));
            break;
          case 'execution_completed':
            sink.onFinal(finalOutputText(event.final_output) ?? '');
            break;
          case 'inference_error':
            throw new EmbedError(Number(event.status) || 500, String(event.code), String(event.message));
          case 'execution_error': {
            const error = event.error as string | { message: string };
            throw new EmbedError(500, 'execution_error', typeof error === 'string' ? error : error.message);
          }
        }
      }
    },
  };
}

export type EmbedClient = ReturnType<typeof embedClient>;
