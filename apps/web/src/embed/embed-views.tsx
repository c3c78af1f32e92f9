import type { AnswerSource } from '@atelier/schemas';
import { AlertCircle, ArrowUp, FileText, LoaderCircle } from 'lucide-react';
import { useEffect, useRef, type FormEvent, type KeyboardEvent } from 'react';
import { Markdown } from '@/features/chat/markdown';
import { groupSources, sourcePlace } from '@/lib/source-groups';
import { cn } from '@/lib/utils';
import type { EmbedMessage } from './embed-client';
import type { EmbedTexts } from './embed-texts';

/** A whole-panel state: loading, or an error with an optional retry. */
export function PanelState({
  busy,
  text,
  onRetry,
  retry,
}: {
  busy?: boolean;
  text: string;
  onRetry?(): void;
  retry?: string;
}) {
  return (
    <div
      role={busy ? 'status' : 'alert'}
      className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center text-sm text-muted-foreground"
    >
      {busy ? (
        <LoaderCircle className="size-6 animate-spin" aria-hidden />
      ) : (
        <AlertCircle className="size-6 text-destructive" aria-hidden />
      )}
      <p className="max-w-xs">{text}</p>
      {onRetry ? (
        <button
          type="button"
          onClick={onRetry}
          className="rounded-md border px-3 py-1.5 text-foreground hover:bg-muted"
        >
          {retry}
        </button>
      ) : null}
    </div>
  );
}

/** The conversation: the greeting first, then the messages; the answer being written ends with a caret. */
export function Messages({
  greeting,
  messages,
  streaming,
  texts,
}: {
  greeting: string;
  messages: EmbedMessage[];
  streaming: boolean;
  texts: EmbedTexts;
}) {
  const end = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);
  // (scrollIntoView returns a promise in recent browsers: an effect must return nothing but a clean-up)
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, last?.text]);
  const caret = (
    <span className="ml-0.5 inline-block h-3.5 w-1.5 animate-pulse bg-current align-middle" aria-hidden />
  );
  return (
    <div
      className="flex flex-1 flex-col gap-3 overflow-y-auto p-4"
      aria-live="polite"
      // While an answer streams, screen readers wait for it whole instead of reading each token.
      aria-busy={streaming}
      data-testid="embed-messages"
    >
      <Bubble role="assistant">
        <Markdown text={greeting} />
      </Bubble>
      {messages.map((m, i) => {
        const writing = streaming && i === messages.length - 1 && m.role === 'assistant';
        return (
          <Bubble key={m.id} role={m.role} error={m.error}>
            {m.role === 'user' ? (
              <p className="whitespace-pre-wrap break-words text-sm">{m.text}</p>
            ) : writing && !m.text ? (
              <p className="text-sm text-muted-foreground">
                {texts.thinking}
                {caret}
              </p>
            ) : (
              <Markdown text={m.text} trailing={writing ? caret : undefined} />
            )}
            {m.role === 'assistant' && m.sources?.length ? (
              <Sources sources={m.sources} texts={texts} />
            ) : null}
          </Bubble>
        );
      })}
      <div ref={end} />
    </div>
  );
}

/**
 * Where an answer's context came from: one entry per document (where its passage sits, or how many
 * passages it gave), each opening to its passages' first lines (a tap on a phone, where there is no hover).
 */
function Sources({ sources, texts }: { sources: AnswerSource[]; texts: EmbedTexts }) {
  const part = (s: AnswerSource) => {
    const place = sourcePlace(s);
    if (!place) return null;
    const text = {
      page: texts.sourcePage,
      sheet: texts.sourceSheet,
      slide: texts.sourceSlide,
      chapter: texts.sourceChapter,
      attachment: texts.sourceAttachment,
      part: texts.sourcePart,
    }[place.kind];
    // A function: a sheet's or chapter's name is the user's text, whose `$&` a replacement string would expand.
    return text.replace('{n}', () => String(place.value));
  };
  return (
    <div className="mt-2 border-t border-foreground/10 pt-2 text-xs" data-testid="embed-sources">
      <p className="mb-1 font-medium text-muted-foreground">{texts.sources}</p>
      <ol className="grid gap-1">
        {groupSources(sources).map((g) => {
          const detail =
            g.passages.length === 1
              ? part(g.passages[0]!)
              : texts.sourcePassages.replace('{n}', String(g.passages.length));
          return (
            <li key={g.key}>
              <details className="group">
                <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded hover:text-foreground/80 [&::-webkit-details-marker]:hidden">
                  <FileText aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
                  <span className="truncate font-medium" data-testid="embed-source-name">
                    {g.filename ?? texts.sourceUntitled}
                  </span>
                  {detail ? <span className="shrink-0 text-muted-foreground">· {detail}</span> : null}
                </summary>
                <ol className="mt-1 grid gap-1.5 border-l-2 border-foreground/15 pl-2 text-muted-foreground">
                  {g.passages.map((s, i) => (
                    <li key={`${s.chunk_index ?? 'x'}:${i}`}>
                      {g.passages.length > 1 && part(s) ? <p className="font-medium">{part(s)}</p> : null}
                      <p className="line-clamp-5 whitespace-pre-wrap break-words">{s.excerpt}</p>
                    </li>
                  ))}
                </ol>
              </details>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function Bubble({
  role,
  error,
  children,
}: {
  role: 'user' | 'assistant';
  error?: boolean | undefined;
  children: React.ReactNode;
}) {
  return (
    <div
      data-role={role}
      className={cn(
        'max-w-[85%] rounded-2xl px-3.5 py-2.5',
        role === 'user'
          ? 'self-end rounded-br-sm bg-primary text-primary-foreground'
          : 'self-start rounded-bl-sm bg-muted text-foreground',
        error && 'border border-destructive/50 bg-destructive/10 text-foreground',
      )}
    >
      {children}
    </div>
  );
}

/** The message box: Enter sends, Shift+Enter starts a new line. */
export function Composer({
  value,
  onChange,
  onSend,
  disabled,
  placeholder,
  texts,
  inputRef,
}: {
  value: string;
  onChange(value: string): void;
  onSend(): void;
  disabled: boolean;
  placeholder: string;
  texts: EmbedTexts;
  inputRef: React.RefObject<HTMLTextAreaElement | null>;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!disabled && value.trim()) onSend();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  return (
    <form onSubmit={submit} className="flex items-end gap-2 border-t bg-background p-3">
      <textarea
        ref={inputRef}
        rows={1}
        value={value}
        maxLength={8000}
        aria-label={placeholder}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        className="max-h-32 min-h-10 flex-1 resize-none rounded-xl border border-input bg-background px-3 py-2 text-sm outline-none placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring"
      />
      <button
        type="submit"
        disabled={disabled || !value.trim()}
        aria-label={texts.send}
        className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-primary-foreground disabled:opacity-40"
      >
        <ArrowUp className="size-5" aria-hidden />
      </button>
    </form>
  );
}
