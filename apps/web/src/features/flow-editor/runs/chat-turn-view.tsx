import { useTranslation } from 'react-i18next';
import { AnswerSources } from '@/features/chat/answer-sources';
import { Markdown } from '@/features/chat/markdown';
import { cn } from '@/lib/utils';
import type { ChatTurn } from './chat-turns';

/** One message of the test conversation; model output only ever goes through the Markdown component. */
export function ChatTurnView({ turn }: { turn: ChatTurn }) {
  const { t } = useTranslation();
  const user = turn.role === 'user';
  return (
    <li className={cn('flex', user ? 'justify-end' : 'justify-start')} data-state={turn.state}>
      <div
        className={cn(
          'grid max-w-[85%] gap-1.5 rounded-xl px-3 py-2',
          user ? 'bg-primary text-primary-foreground' : 'border bg-card',
        )}
      >
        <span className="sr-only">
          {user ? t('chatPage.messages.you') : t('chatPage.messages.assistant')}
        </span>
        {user ? (
          <p className="whitespace-pre-wrap break-words text-sm">{turn.content}</p>
        ) : turn.state === 'thinking' ? (
          <p className="animate-pulse text-sm text-muted-foreground">{t('chatPage.messages.thinking')}</p>
        ) : turn.empty ? (
          <p className="text-sm italic text-muted-foreground">{t('chatPage.messages.emptyOutput')}</p>
        ) : (
          turn.content && <Markdown text={turn.content} />
        )}
        {!user && turn.state !== 'thinking' && turn.state !== 'error' && turn.sources && (
          <AnswerSources sources={turn.sources} />
        )}
        {turn.state === 'error' && (
          <p role="alert" className="text-sm text-destructive">
            {t('chatPage.messages.error', { message: turn.error || t('chatPage.errors.execution') })}
          </p>
        )}
        {turn.failure && turn.failure.problems.length > 0 && (
          <ul className="grid gap-0.5 pl-5 text-xs text-destructive">
            {turn.failure.problems.map((p, i) => (
              <li key={i} className="list-disc">
                {[p.nodeId, p.field].filter(Boolean).join(' · ')}
                {(p.nodeId || p.field) && ': '}
                {p.message}
              </li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}
