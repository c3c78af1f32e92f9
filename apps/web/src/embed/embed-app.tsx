import type { EmbedConfig } from '@atelier/schemas';
import { MessageSquarePlus, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  EmbedError,
  savedConversation,
  saveConversation,
  type EmbedClient,
  type EmbedMessage,
} from './embed-client';
import type { EmbedTexts } from './embed-texts';
import { Composer, Messages, PanelState } from './embed-views';

type Load =
  | { state: 'loading' }
  | { state: 'error'; text: string; retry: boolean }
  | { state: 'ready'; config: EmbedConfig };

/** What a refusal means to a visitor. */
function explain(error: unknown, texts: EmbedTexts): { text: string; retry: boolean } {
  if (!(error instanceof EmbedError)) return { text: texts.network, retry: true };
  if (error.code === 'embed_disabled') return { text: texts.disabled, retry: false };
  if (error.code === 'chatbot_unpublished' || error.code === 'chatbot_deleted')
    return { text: texts.unpublished, retry: false };
  if (error.code === 'embed_not_found') return { text: texts.notFound, retry: false };
  if (error.status === 429 || error.status === 402) return { text: error.message, retry: true };
  if (error.status >= 500) return { text: texts.unavailable, retry: true };
  return { text: error.message || texts.unavailable, retry: false };
}

let ids = 0;
const localId = () => `local-${++ids}`;

/** The chat in the iframe: configuration, the browser's conversation, streamed answers. */
export function EmbedApp({
  client,
  token,
  texts,
  framed,
}: {
  client: EmbedClient;
  token: string;
  texts: EmbedTexts;
  framed: boolean;
}) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [messages, setMessages] = useState<EmbedMessage[]>([]);
  const [conversation, setConversation] = useState<string | null>(() => savedConversation(token));
  const [draft, setDraft] = useState('');
  const [streaming, setStreaming] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const abort = useRef<AbortController | null>(null);

  const start = useCallback(async () => {
    setLoad({ state: 'loading' });
    try {
      const config = await client.config();
      const saved = savedConversation(token);
      if (saved) {
        const history = await client.history(saved).catch((error: unknown) => {
          // Gone (or another browser's): start afresh.
          if (error instanceof EmbedError && error.status === 404) {
            saveConversation(token, null);
            setConversation(null);
            return [];
          }
          throw error;
        });
        setMessages(history);
      }
      setLoad({ state: 'ready', config });
    } catch (error) {
      setLoad({ state: 'error', ...explain(error, texts) });
    }
  }, [client, token, texts]);

  useEffect(() => {
    void start();
    return () => abort.current?.abort();
  }, [start]);

  const close = useCallback(() => window.parent.postMessage({ type: 'atelier-embed:close' }, '*'), []);
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (
        event.source === window.parent &&
        (event.data as { type?: string } | null)?.type === 'atelier-embed:focus'
      )
        input.current?.focus();
    };
    const onKey = (event: KeyboardEvent) => framed && event.key === 'Escape' && close();
    window.addEventListener('message', onMessage);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('message', onMessage);
      window.removeEventListener('keydown', onKey);
    };
  }, [close, framed]);

  const patchLast = (patch: (m: EmbedMessage) => EmbedMessage) =>
    setMessages((list) => list.map((m, i) => (i === list.length - 1 ? patch(m) : m)));

  const send = async () => {
    const text = draft.trim();
    setDraft('');
    setMessages((list) => [
      ...list,
      { id: localId(), role: 'user', text },
      { id: localId(), role: 'assistant', text: '' },
    ]);
    setStreaming(true);
    const controller = new AbortController();
    abort.current = controller;
    try {
      await client.send(
        text,
        conversation,
        {
          onConversation: (id) => {
            setConversation(id);
            saveConversation(token, id);
          },
          onText: (piece) => patchLast((m) => ({ ...m, text: m.text + piece })),
          onSources: (sources) => patchLast((m) => ({ ...m, sources })),
          onFinal: (final) => patchLast((m) => ({ ...m, text: final || m.text })),
        },
        controller.signal,
      );
    } catch (error) {
      if (controller.signal.aborted) return;
      const { text: reason } = explain(error, texts);
      // A failed answer shows no sources (as it is stored: see answerColumns).
      patchLast((m) => ({
        id: m.id,
        role: m.role,
        error: true,
        text: m.text ? `${m.text}\n\n${reason}` : reason,
      }));
    } finally {
      setStreaming(false);
      input.current?.focus();
    }
  };

  const restart = () => {
    abort.current?.abort();
    setMessages([]);
    setConversation(null);
    saveConversation(token, null);
    setStreaming(false);
    input.current?.focus();
  };

  const config = load.state === 'ready' ? load.config : null;
  return (
    <div className="flex h-dvh flex-col bg-background text-foreground">
      <header className="flex h-14 shrink-0 items-center gap-2 border-b bg-card px-4">
        {config ? <span className="size-2.5 shrink-0 rounded-full bg-success" aria-hidden /> : null}
        <h1 className="min-w-0 flex-1 truncate text-sm font-semibold">{config?.chatbot.name ?? ''}</h1>
        {config ? (
          <button
            type="button"
            onClick={restart}
            title={texts.newConversation}
            aria-label={texts.newConversation}
            className="rounded-md p-2 text-muted-foreground hover:bg-muted hover:text-foreground"
          >
            <MessageSquarePlus className="size-4" aria-hidden />
          </button>
        ) : null}
        {framed ? (
          <button
            type="button"
            onClick={close}
            title={texts.close}
            aria-label={texts.close}
            className="rounded-md p-2 text-muted-foreground hover:bg-muted hover:text-foreground"
          >
            <X className="size-4" aria-hidden />
          </button>
        ) : null}
      </header>
      {load.state === 'loading' ? <PanelState busy text={texts.loading} /> : null}
      {load.state === 'error' ? (
        <PanelState
          text={load.text}
          retry={texts.retry}
          {...(load.retry ? { onRetry: () => void start() } : {})}
        />
      ) : null}
      {config ? (
        <>
          <Messages
            greeting={config.greeting || texts.greeting}
            messages={messages}
            streaming={streaming}
            texts={texts}
          />
          <Composer
            value={draft}
            onChange={setDraft}
            onSend={() => void send()}
            disabled={streaming}
            placeholder={config.placeholder || texts.placeholder}
            texts={texts}
            inputRef={input}
          />
          <p className="bg-background px-3 pb-2 text-center text-[11px] text-muted-foreground">
            {texts.poweredBy}
          </p>
        </>
      ) : null}
    </div>
  );
}
