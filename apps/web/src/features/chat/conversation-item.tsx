import type { Conversation } from '@atelier/schemas';
import { Check, MoreHorizontal, Pencil, Trash2, X } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { formatWhen } from '@/lib/format';
import { cn } from '@/lib/utils';
import { toast } from '@/stores/toasts';
import { openConversation, removeConversation, renameConversation } from './chat-actions';
import { chatErrorText } from './errors';
import { previewOf } from './messages';

/** One conversation of the history: opens on click; renames inline; deletes after confirmation. */
export function ConversationItem({
  conversation,
  active,
  assistantName,
  onOpened,
}: {
  conversation: Conversation;
  active: boolean;
  assistantName: string | undefined;
  onOpened(): void;
}) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  /** Renaming: the menu must not take the focus back from the title field when it closes. */
  const keepFocus = useRef(false);
  const shownTitle = conversation.title || t('chatPage.history.untitled');

  async function save(event: FormEvent) {
    event.preventDefault();
    const next = title.trim();
    if (!next || next === conversation.title) return setEditing(false);
    setSaving(true);
    const error = await renameConversation(conversation.id, next);
    setSaving(false);
    if (error) return toast.error(t('chatPage.errors.rename'), chatErrorText(t, error));
    setEditing(false);
    toast.success(t('chatPage.history.renamed'));
  }

  async function remove() {
    const error = await removeConversation(conversation.id);
    if (error) toast.error(t('chatPage.errors.delete'), chatErrorText(t, error));
    else toast.success(t('chatPage.history.deleted'));
  }

  if (editing) {
    return (
      <li>
        <form onSubmit={(e) => void save(e)} className="flex items-center gap-1 rounded-md bg-accent/60 p-1">
          <Input
            autoFocus
            value={title}
            maxLength={200}
            aria-label={t('chatPage.history.renameLabel')}
            onChange={(e) => setTitle(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
            className="h-8 bg-background"
            disabled={saving}
          />
          <Button
            type="submit"
            size="icon"
            variant="ghost"
            className="size-8"
            disabled={saving}
            aria-label={t('chatPage.history.save')}
          >
            <Check />
          </Button>
          <Button
            type="button"
            size="icon"
            variant="ghost"
            className="size-8"
            onClick={() => setEditing(false)}
            aria-label={t('chatPage.history.cancel')}
          >
            <X />
          </Button>
        </form>
      </li>
    );
  }

  return (
    <li
      data-testid="conversation-item"
      className={cn('group flex items-center rounded-md hover:bg-accent', active && 'bg-accent')}
    >
      <button
        type="button"
        onClick={() => {
          void openConversation(conversation.id);
          onOpened();
        }}
        aria-current={active ? 'true' : undefined}
        className="min-w-0 flex-1 px-2 py-1.5 text-left"
      >
        <span className="flex items-baseline gap-2">
          <span className="min-w-0 flex-1 truncate text-sm font-medium">{shownTitle}</span>
          <time
            dateTime={conversation.updated_at}
            title={new Date(conversation.updated_at).toLocaleString(i18n.language)}
            className="shrink-0 text-[11px] text-muted-foreground"
            data-testid="conversation-time"
          >
            {formatWhen(conversation.updated_at, i18n.language, t('chatExtras.justNow'))}
          </time>
        </span>
        <span className="block truncate text-xs text-muted-foreground" data-testid="conversation-preview">
          {previewOf(conversation.last_message_preview) || assistantName}
        </span>
      </button>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            size="icon"
            variant="ghost"
            className="size-7 shrink-0 opacity-60 group-hover:opacity-100"
            aria-label={t('chatPage.history.actions', { title: shownTitle })}
          >
            <MoreHorizontal />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent
          align="end"
          onCloseAutoFocus={(e) => {
            if (keepFocus.current) e.preventDefault();
            keepFocus.current = false;
          }}
        >
          <DropdownMenuItem
            onSelect={() => {
              keepFocus.current = true;
              setTitle(conversation.title);
              setEditing(true);
            }}
          >
            <Pencil /> {t('chatPage.history.rename')}
          </DropdownMenuItem>
          <DropdownMenuItem
            onSelect={() => setConfirming(true)}
            className="text-destructive focus:text-destructive"
          >
            <Trash2 /> {t('chatPage.history.delete')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogTitle>{t('chatPage.history.deleteTitle')}</AlertDialogTitle>
          <AlertDialogDescription>
            {t('chatPage.history.deleteText', { title: shownTitle })}
          </AlertDialogDescription>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogCancel>{t('chatPage.history.cancel')}</AlertDialogCancel>
            <AlertDialogAction onClick={() => void remove()}>
              {t('chatPage.history.delete')}
            </AlertDialogAction>
          </div>
        </AlertDialogContent>
      </AlertDialog>
    </li>
  );
}
