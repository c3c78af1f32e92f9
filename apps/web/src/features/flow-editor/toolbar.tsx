import type { FlowChatbotType } from '@atelier/schemas/constants';
import { Link } from '@tanstack/react-router';
import {
  ArrowLeft,
  EllipsisVertical,
  History,
  LayoutTemplate,
  Loader2,
  MessageSquare,
  Network,
  Play,
  Plus,
  Redo2,
  Rocket,
  Save,
  Undo2,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
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
  /** Opens the palette where it is not shown beside the canvas (narrow screens). */
  onAddNode(): void;
}

/**
 * The editor's bar: where one is, the unsaved flag, undo/redo, layout, templates, runs, try, save, publish.
 * Below 1024 px the less frequent actions go into a "more" menu, and below 640 px Chat, Save and Publish
 * keep their icon only (their names stay for screen readers): the bar always fits the screen.
 */
export function Toolbar(props: Props) {
  const { type, saving, publishing, onSave, onPublish, onTemplates, onRuns, onTry, onAddNode } = props;
  const { t } = useTranslation();
  const chatbot = useEditorStore((s) => s.chatbot);
  const dirty = useEditorStore((s) => s.dirty);
  const canUndo = useEditorStore((s) => s.history.past.length > 0);
  const canRedo = useEditorStore((s) => s.history.future.length > 0);
  const hasNodes = useEditorStore((s) => s.nodes.length > 0);
  const undo = useEditorStore((s) => s.undo);
  const redo = useEditorStore((s) => s.redo);
  const tidy = useEditorStore((s) => s.autoLayout);
  const mod = navigator.platform.startsWith('Mac') ? '⌘' : 'Ctrl+';
  const icon = 'size-8 shrink-0';
  const TryIcon = type === 'chatflow' ? MessageSquare : Play;

  return (
    <div
      className="flex h-12 shrink-0 items-center gap-1.5 border-b bg-background px-2 sm:gap-2 sm:px-3"
      data-testid="flow-toolbar"
    >
      <Button variant="ghost" size="icon" className={icon} asChild>
        <Link to="/studio" aria-label={t('flow.toolbar.back')}>
          <ArrowLeft />
        </Link>
      </Button>
      <h1 className="min-w-0 truncate text-sm font-semibold" data-testid="flow-name">
        {chatbot?.name}
      </h1>
      <Badge variant="secondary" className="hidden xl:inline-flex">
        {t(`studio.types.${type}.label`)}
      </Badge>
      {chatbot && (
        <span className="hidden shrink-0 sm:inline-flex">
          <StatusBadge published={chatbot.is_published} changes={chatbot.has_unpublished_changes} />
        </span>
      )}
      {dirty && (
        <span
          className="flex shrink-0 items-center gap-1 text-xs text-amber-600 dark:text-amber-400"
          data-testid="unsaved"
        >
          <span aria-hidden className="size-2 rounded-full bg-current md:hidden" />
          <span className="max-md:sr-only">{t('flow.toolbar.unsaved')}</span>
        </span>
      )}
      <span className="flex-1" />
      <div className="hidden items-center gap-2 lg:flex">
        <Button
          variant="ghost"
          size="icon"
          className={icon}
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
          className={icon}
          disabled={!canRedo}
          onClick={redo}
          aria-label={t('flow.toolbar.redo')}
          title={`${t('flow.toolbar.redo')} (${mod}Shift+Z)`}
        >
          <Redo2 />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className={icon}
          disabled={!hasNodes}
          onClick={tidy}
          aria-label={t('canvas.toolbar.autoLayout')}
          title={t('canvas.toolbar.autoLayout')}
          data-testid="auto-layout"
        >
          <Network />
        </Button>
        <Button variant="outline" size="sm" onClick={onTemplates}>
          <LayoutTemplate /> {t('flow.toolbar.templates')}
        </Button>
        <Button variant="outline" size="sm" onClick={onRuns}>
          <History /> {t('flow.toolbar.runs')}
        </Button>
      </div>
      <Button
        variant="outline"
        size="icon"
        className={`${icon} md:hidden`}
        onClick={onAddNode}
        aria-label={t('canvas.toolbar.addNode')}
        title={t('canvas.toolbar.addNode')}
      >
        <Plus />
      </Button>
      <Button variant="outline" size="sm" className="max-sm:size-8 max-sm:px-0" onClick={onTry}>
        <TryIcon />
        <span className="max-sm:sr-only">
          {type === 'chatflow' ? t('flow.toolbar.chat') : t('flow.toolbar.run')}
        </span>
      </Button>
      <Button
        variant="outline"
        size="sm"
        className="max-sm:size-8 max-sm:px-0"
        onClick={onSave}
        disabled={saving}
        title={`${t('flow.toolbar.save')} (${mod}S)`}
      >
        {saving ? <Loader2 className="animate-spin" /> : <Save />}
        <span className="max-sm:sr-only">{t('flow.toolbar.save')}</span>
      </Button>
      <Button size="sm" className="max-sm:size-8 max-sm:px-0" onClick={onPublish} disabled={publishing}>
        {publishing ? <Loader2 className="animate-spin" /> : <Rocket />}
        <span className="max-sm:sr-only">{t('flow.toolbar.publish')}</span>
      </Button>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className={`${icon} lg:hidden`}
            aria-label={t('canvas.toolbar.more')}
            title={t('canvas.toolbar.more')}
            data-testid="toolbar-more"
          >
            <EllipsisVertical />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem disabled={!canUndo} onSelect={undo}>
            <Undo2 /> {t('flow.toolbar.undo')}
          </DropdownMenuItem>
          <DropdownMenuItem disabled={!canRedo} onSelect={redo}>
            <Redo2 /> {t('flow.toolbar.redo')}
          </DropdownMenuItem>
          <DropdownMenuItem disabled={!hasNodes} onSelect={tidy}>
            <Network /> {t('canvas.toolbar.autoLayout')}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={onTemplates}>
            <LayoutTemplate /> {t('flow.toolbar.templates')}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={onRuns}>
            <History /> {t('flow.toolbar.runs')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
