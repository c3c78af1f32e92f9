import type { FlowChatbotType } from '@atelier/schemas/constants';
import { Link } from '@tanstack/react-router';
import {
  ArrowLeft,
  History,
  LayoutTemplate,
  Loader2,
  MessageSquare,
  Play,
  Redo2,
  Rocket,
  Save,
  Undo2,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { StatusBadge } from '@/features/studio/controls';
import { useEditorStore } from './editor-store';

interface Props {
  type: FlowChatbotType;
  saving: boolean;
  publishing: boolean;
  onSave(): void;
  onPublish(): void;
  onTemplates(): void;
  onRuns(): void;
  onTry(): void;
}

/** The editor's bar: where one is, the unsaved flag, undo/redo, templates, runs, try, save, publish. */
export function Toolbar({ type, saving, publishing, onSave, onPublish, onTemplates, onRuns, onTry }: Props) {
  const { t } = useTranslation();
  const chatbot = useEditorStore((s) => s.chatbot);
  const dirty = useEditorStore((s) => s.dirty);
  const canUndo = useEditorStore((s) => s.history.past.length > 0);
  const canRedo = useEditorStore((s) => s.history.future.length > 0);
  const undo = useEditorStore((s) => s.undo);
  const redo = useEditorStore((s) => s.redo);
  const mod = navigator.platform.startsWith('Mac') ? '⌘' : 'Ctrl+';

  return (
    <div className="flex h-12 shrink-0 items-center gap-2 border-b bg-background px-3">
      <Button variant="ghost" size="icon" className="size-8" asChild>
        <Link to="/studio" aria-label={t('flow.toolbar.back')}>
          <ArrowLeft />
        </Link>
      </Button>
      <h1 className="min-w-0 truncate text-sm font-semibold" data-testid="flow-name">
        {chatbot?.name}
      </h1>
      <Badge variant="secondary">{t(`studio.types.${type}.label`)}</Badge>
      {chatbot && <StatusBadge published={chatbot.is_published} />}
      {dirty && (
        <span className="text-xs text-amber-600 dark:text-amber-400" data-testid="unsaved">
          {t('flow.toolbar.unsaved')}
        </span>
      )}
      <span className="flex-1" />
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        disabled={!canUndo}
        onClick={undo}
        aria-label={t('flow.toolbar.undo')}
        title={`${t('flow.toolbar.undo')} (${mod}Z)`}
      >
        <Undo2 />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        disabled={!canRedo}
        onClick={redo}
        aria-label={t('flow.toolbar.redo')}
        title={`${t('flow.toolbar.redo')} (${mod}Shift+Z)`}
      >
        <Redo2 />
      </Button>
      <Button variant="outline" size="sm" onClick={onTemplates}>
        <LayoutTemplate /> {t('flow.toolbar.templates')}
      </Button>
      <Button variant="outline" size="sm" onClick={onRuns}>
        <History /> {t('flow.toolbar.runs')}
      </Button>
      <Button variant="outline" size="sm" onClick={onTry}>
        {type === 'chatflow' ? <MessageSquare /> : <Play />}
        {type === 'chatflow' ? t('flow.toolbar.chat') : t('flow.toolbar.run')}
      </Button>
      <Button
        variant="outline"
        size="sm"
        onClick={onSave}
        disabled={saving}
        title={`${t('flow.toolbar.save')} (${mod}S)`}
      >
        {saving ? <Loader2 className="animate-spin" /> : <Save />} {t('flow.toolbar.save')}
      </Button>
      <Button size="sm" onClick={onPublish} disabled={publishing}>
        {publishing ? <Loader2 className="animate-spin" /> : <Rocket />} {t('flow.toolbar.publish')}
      </Button>
    </div>
  );
}
