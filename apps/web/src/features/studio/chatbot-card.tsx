import type { Chatbot } from '@atelier/schemas';
import { Link } from '@tanstack/react-router';
import {
  BookOpen,
  Code2,
  Copy,
  ExternalLink,
  MoreHorizontal,
  Pencil,
  Rocket,
  Trash2,
  Users,
} from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { formatDate } from '@/lib/format';
import { StatusBadge } from './controls';
import { EDITOR_ROUTES, typeKey } from './logic';

export type GuideKind = 'integration' | 'embed';

export interface ChatbotActions {
  onEdit(chatbot: Chatbot): void;
  onDuplicate(chatbot: Chatbot): void;
  onPublish(chatbot: Chatbot): void;
  onAccess(chatbot: Chatbot): void;
  onGuide(chatbot: Chatbot, kind: GuideKind): void;
  onDelete(chatbot: Chatbot): void;
}

/** One chatbot or workflow of the studio: what it is, its state, and what can be done with it. */
export function ChatbotCard({ chatbot, ...actions }: ChatbotActions & { chatbot: Chatbot }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  return (
    <Card
      role="article"
      aria-labelledby={titleId}
      className="flex h-full flex-col"
      data-testid="chatbot-card"
    >
      <div className="grid gap-2 p-4 pb-3">
        <h3 id={titleId} className="truncate font-semibold leading-tight" title={chatbot.name}>
          {chatbot.name}
        </h3>
        <div className="flex flex-wrap gap-1.5">
          <Badge variant="secondary" className="text-xs font-medium normal-case tracking-normal">
            {t(typeKey(chatbot.type))}
          </Badge>
          <StatusBadge published={chatbot.is_published} changes={chatbot.has_unpublished_changes} />
        </div>
      </div>
      <p className="line-clamp-2 px-4 text-sm text-muted-foreground" title={chatbot.description || undefined}>
        {chatbot.description || t('studio.list.noDescription')}
      </p>
      <p className="px-4 pt-2 text-xs text-muted-foreground">
        {t('studio.list.updated', { date: formatDate(chatbot.updated_at, i18n.language) })}
      </p>
      <div className="mt-auto flex items-center gap-2 p-4">
        <Button size="sm" variant="outline" asChild>
          <Link
            to={EDITOR_ROUTES[chatbot.type]}
            params={{ chatbotId: chatbot.id }}
            aria-label={t('studio.actions.openNamed', { name: chatbot.name })}
          >
            <ExternalLink /> {t('studio.actions.open')}
          </Link>
        </Button>
        <Button size="sm" variant="outline" onClick={() => actions.onPublish(chatbot)}>
          <Rocket /> {t('studio.actions.publish')}
        </Button>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button
              size="icon"
              variant="ghost"
              className="ml-auto"
              aria-label={t('studio.actions.more', { name: chatbot.name })}
            >
              <MoreHorizontal />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => actions.onEdit(chatbot)}>
              <Pencil /> {t('studio.actions.edit')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => actions.onDuplicate(chatbot)}>
              <Copy /> {t('studio.actions.duplicate')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => actions.onAccess(chatbot)}>
              <Users /> {t('studio.actions.access')}
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => actions.onGuide(chatbot, 'integration')}>
              <Code2 /> {t('studio.actions.integration')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => actions.onGuide(chatbot, 'embed')}>
              <BookOpen /> {t('studio.actions.embed')}
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem
              className="text-destructive focus:text-destructive"
              onSelect={() => actions.onDelete(chatbot)}
            >
              <Trash2 /> {t('studio.actions.delete')}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </Card>
  );
}
