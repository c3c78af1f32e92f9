import type { MessageFeedback } from '@atelier/schemas/constants';
import { ArrowDown, Clock, RefreshCw, RotateCcw, ThumbsDown, ThumbsUp } from 'lucide-react';
import { memo, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { toast } from '@/stores/toasts';
import { rateAnswer } from './chat-actions';
import { CopyButton } from './copy-button';
import { chatErrorText } from './errors';
import { Markdown } from './markdown';
import { AnswerSources } from './answer-sources';
import { messageImages, messageSources, messageText, type ChatMessage } from './messages';

/** Images are shown only from data:image URLs and web addresses. */
const safeImage = (url: string) => /^(data:image\/|https?:\/\/)/i.test(url);

function ThinkingDots({ label }: { label: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm text-muted-foreground">
      <span aria-hidden className="inline-flex gap-1">
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            className="size-1.5 animate-bounce rounded-full bg-current"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </span>
      {label}
    </span>
  );
}

const Caret = () => (
  <span
    aria-hidden
    data-testid="streaming-caret"
    className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-current align-text-bottom"
  />
);

/** Ids the server gave (uuids): only stored answers can be rated. */
const STORED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const Bubble = memo(function Bubble({
  message,
  last,
  busy,
  onRegenerate,
}: {
  message: ChatMessage;
  /** The conversation's last answer: it can be regenerated (or retried when it failed). */
  last: boolean;
  busy: boolean;
  onRegenerate(): void;
}) {
  const { t } = useTranslation();
  const user = message.role === 'user';
  const text = messageText(message);
  const images = messageImages(message).filter(safeImage);
  const failed = message.state === 'error' || message.state === 'timedOut' || message.isError === true;
  return (
    <li
      data-testid={user ? 'user-message' : 'assistant-message'}
      data-state={message.state}
      className={cn('group/message flex flex-col gap-1', user ? 'items-end' : 'items-start')}
    >
      <div
        className={cn(
          'grid max-w-[85%] gap-2 rounded-2xl px-4 py-2.5 shadow-sm',
          user ? 'rounded-br-sm bg-primary text-primary-foreground' : 'rounded-bl-sm border bg-card',
          failed && !user && 'border-destructive/50 bg-destructive/5',
        )}
      >
        <span className="sr-only">
          {user ? t('chatPage.messages.you') : t('chatPage.messages.assistant')}
        </span>
        {images.length > 0 && (
          <div className="flex flex-wrap gap-2">
            {images.map((url, i) => (
              <img
                key={i}
                src={url}
                alt={t('chatPage.messages.image', { index: i + 1 })}
                className="max-h-48 max-w-full rounded-lg object-contain"
              />
            ))}
          </div>
        )}
        {message.state === 'thinking' ? (
          <ThinkingDots
            label={
              message.progress
                ? t('chatPage.messages.running', { node: message.progress })
                : t('chatPage.messages.thinking')
            }
          />
        ) : user ? (
          text && <p className="whitespace-pre-wrap break-words text-sm">{text}</p>
        ) : message.emptyOutput ? (
          <p className="text-sm italic text-muted-foreground">{t('chatPage.messages.emptyOutput')}</p>
        ) : (
          text && (
            <Markdown
              text={text}
              className={cn(message.isError && !message.error && 'text-destructive')}
              trailing={message.state === 'streaming' ? <Caret /> : undefined}
            />
          )
        )}
        {!user && message.state !== 'thinking' && <AnswerSources sources={messageSources(message)} />}
        {message.error && (
          <p role="alert" className="flex items-center gap-1.5 text-sm text-destructive">
            {message.state === 'timedOut' && <Clock className="size-4 shrink-0" />}
            {t('chatPage.messages.error', { message: chatErrorText(t, message.error) })}
          </p>
        )}
        {user && message.state === 'sending' && (
          <span className="text-xs opacity-75">{t('chatPage.messages.sending')}</span>
        )}
        {message.state === 'timedOut' && (
          <span className="text-xs text-muted-foreground">{t('chatPage.messages.timedOut')}</span>
        )}
        {!user && failed && last && !busy && (
          <div>
            <Button size="sm" variant="outline" onClick={onRegenerate} data-testid="retry-answer">
              <RotateCcw /> {t('chatExtras.retry')}
            </Button>
          </div>
        )}
      </div>
      <MessageActions
        message={message}
        text={text}
        last={last}
        busy={busy}
        failed={failed}
        onRegenerate={onRegenerate}
      />
    </li>
  );
});

/** Copy, and for a finished answer: thumbs up or down (once stored) and Regenerate (the last one). */
function MessageActions({
  message,
  text,
  last,
  busy,
  failed,
  onRegenerate,
}: {
  message: ChatMessage;
  text: string;
  last: boolean;
  busy: boolean;
  failed: boolean;
  onRegenerate(): void;
}) {
  const { t } = useTranslation();
  const user = message.role === 'user';
  const settled = user ? message.state === 'sent' : message.state === 'done' || failed;
  if (!settled) return null;
  const rateable = !user && !failed && STORED_ID.test(message.id);
  const rate = async (rating: MessageFeedback) => {
    const error = await rateAnswer(message.id, rating);
    if (error) toast.error(chatErrorText(t, error));
  };
  return (
    <div
      className={cn(
        'flex items-center gap-0.5 transition-opacity',
        // Always there on touch screens and for the last answer; on hover elsewhere.
        !last && 'sm:opacity-0 sm:group-focus-within/message:opacity-100 sm:group-hover/message:opacity-100',
      )}
      data-testid="message-actions"
    >
      {text && <CopyButton text={text} label={t('chatExtras.copyMessage')} />}
      {rateable && (
        <>
          <FeedbackButton
            pressed={message.feedback === 'up'}
            label={t('chatExtras.good')}
            onClick={() => void rate('up')}
            icon={<ThumbsUp className="size-3.5" />}
          />
          <FeedbackButton
            pressed={message.feedback === 'down'}
            label={t('chatExtras.bad')}
            onClick={() => void rate('down')}
            icon={<ThumbsDown className="size-3.5" />}
          />
        </>
      )}
      {!user && last && !failed && (
        <button
          type="button"
          onClick={onRegenerate}
          disabled={busy}
          aria-label={t('chatExtras.regenerate')}
          title={t('chatExtras.regenerate')}
          className="inline-flex size-7 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground disabled:opacity-50"
        >
          <RefreshCw className="size-3.5" />
        </button>
      )}
    </div>
  );
}

function FeedbackButton({
  pressed,
  label,
  icon,
  onClick,
}: {
  pressed: boolean;
  label: string;
  icon: ReactNode;
  onClick(): void;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      aria-label={label}
      title={label}
      onClick={onClick}
      className={cn(
        'inline-flex size-7 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground',
        pressed && 'bg-accent text-primary',
      )}
    >
      {icon}
    </button>
  );
}

/** Within this many pixels of the end, the list follows new content; further up, it stays put. */
const NEAR_END_PX = 80;

/**
 * The conversation, oldest first. It follows the newest content while the reader is at the end; a
 * reader who scrolled up stays where they are and gets a "scroll to the latest" button.
 */
export function MessageList({
  messages,
  busy = false,
  onRegenerate = () => undefined,
}: {
  messages: ChatMessage[];
  busy?: boolean;
  onRegenerate?(): void;
}) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const [atEnd, setAtEnd] = useState(true);
  const following = useRef(true);
  const last = messages.at(-1);
  const lastLength = last ? messageText(last).length : 0;
  const lastAnswer = messages.findLastIndex((m) => m.role === 'assistant');

  const toLatest = (behavior: ScrollBehavior = 'auto') => {
    following.current = true;
    setAtEnd(true);
    end.current?.scrollIntoView?.({ block: 'end', behavior });
  };
  useEffect(() => {
    if (following.current) end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, lastLength]);
  // A new question always brings the reader to the end.
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  useEffect(() => {
    if (lastUser >= 0) toLatest();
  }, [lastUser]);

  function onScroll() {
    const el = scroller.current;
    if (!el) return;
    const near = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_END_PX;
    following.current = near;
    setAtEnd(near);
  }

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        ref={scroller}
        onScroll={onScroll}
        className="flex-1 overflow-y-auto px-3 py-4 sm:px-6"
        data-testid="message-scroller"
      >
        <ol aria-label={t('chatPage.messages.label')} className="mx-auto grid w-full max-w-3xl gap-4">
          {messages.map((message, i) => (
            <Bubble
              key={message.id}
              message={message}
              last={i === lastAnswer}
              busy={busy}
              onRegenerate={onRegenerate}
            />
          ))}
        </ol>
        <div ref={end} />
      </div>
      {!atEnd && (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => toLatest('smooth')}
          className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-md"
          data-testid="scroll-latest"
        >
          <ArrowDown /> {t('chatExtras.scrollLatest')}
        </Button>
      )}
    </div>
  );
}
