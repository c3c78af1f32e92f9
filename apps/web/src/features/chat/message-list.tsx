import { Clock } from 'lucide-react';
import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import { chatErrorText } from './errors';
import { Markdown } from './markdown';
import { messageImages, messageText, type ChatMessage } from './messages';

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

const Bubble = memo(function Bubble({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  const user = message.role === 'user';
  const text = messageText(message);
  const images = messageImages(message).filter(safeImage);
  const failed = message.state === 'error' || message.state === 'timedOut' || message.isError;
  return (
    <li
      data-testid={user ? 'user-message' : 'assistant-message'}
      data-state={message.state}
      className={cn('flex', user ? 'justify-end' : 'justify-start')}
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
      </div>
    </li>
  );
});

/** The conversation, oldest first, kept scrolled to the newest while it grows. */
export function MessageList({ messages }: { messages: ChatMessage[] }) {
  const { t } = useTranslation();
  const end = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);
  const lastLength = last ? messageText(last).length : 0;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, lastLength]);
  return (
    <div className="flex-1 overflow-y-auto px-3 py-4 sm:px-6">
      <ol aria-label={t('chatPage.messages.label')} className="mx-auto grid w-full max-w-3xl gap-4">
        {messages.map((message) => (
          <Bubble key={message.id} message={message} />
        ))}
      </ol>
      <div ref={end} />
    </div>
  );
}
