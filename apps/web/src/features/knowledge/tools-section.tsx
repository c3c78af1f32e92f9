import type { Tool } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Plus, Wrench } from 'lucide-react';
import { EditDeleteButtons } from '@/components/ui/edit-delete-buttons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ConfirmDelete } from '@/features/providers/states';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { createTool, deleteTool, toolsKey, updateTool, useToolTypes, useTools } from './queries';
import { SettingsDialog } from './settings-dialog';
import { settingsFormBody } from './settings-form';
import { LoadError } from '@/components/load-error';
import { ListSkeleton } from './states';

/** Stored tool configurations (Figma, Jira, Notion, GitBook) that nodes reference by id. */
export function ToolsSection({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tools = useTools(workspaceId);
  const types = useToolTypes();
  const [dialog, setDialog] = useState<{ tool: Tool | null } | null>(null);
  const [deleting, setDeleting] = useState<Tool | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: toolsKey(workspaceId) });
  const typeLabel = (type: string) => types.data?.find((k) => k.type === type)?.label ?? type;

  async function remove(tool: Tool) {
    try {
      await deleteTool(tool.tool_id);
      toast.success(t('knowledge.tools.deleted'));
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    }
    await refresh();
  }

  const add = () => setDialog({ tool: null });
  const editing = dialog?.tool ?? null;
  return (
    <section aria-labelledby="tools-heading" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="tools-heading" className="text-lg font-semibold tracking-tight">
            {t('knowledge.tools.title')}
          </h2>
          <p className="text-sm text-muted-foreground">{t('knowledge.tools.description')}</p>
        </div>
        <Button variant="outline" onClick={add}>
          <Plus /> {t('knowledge.tools.add')}
        </Button>
      </div>
      {tools.isPending ? (
        <ListSkeleton />
      ) : tools.isError ? (
        <LoadError onRetry={() => void tools.refetch()} />
      ) : tools.data.length === 0 ? (
        <EmptyState
          icon={Wrench}
          title={t('knowledge.tools.emptyTitle')}
          text={t('knowledge.tools.emptyText')}
          action={
            <Button variant="outline" onClick={add}>
              <Plus /> {t('knowledge.tools.add')}
            </Button>
          }
        />
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {tools.data.map((tool) => (
            <li key={tool.tool_id}>
              <Card
                role="article"
                aria-label={tool.name}
                className="flex h-full flex-col gap-2 p-4"
                data-testid="tool-card"
              >
                <div className="flex items-start justify-between gap-2">
                  <div className="grid min-w-0 gap-1.5">
                    <h3 className="truncate font-semibold leading-tight" title={tool.name}>
                      {tool.name}
                    </h3>
                    <Badge
                      variant="secondary"
                      className="w-fit text-xs font-medium normal-case tracking-normal"
                    >
                      {typeLabel(tool.type)}
                    </Badge>
                  </div>
                  <div className="flex shrink-0">
                    <EditDeleteButtons
                      editLabel={t('knowledge.edit', { name: tool.name })}
                      deleteLabel={t('knowledge.delete', { name: tool.name })}
                      onEdit={() => setDialog({ tool })}
                      onDelete={() => setDeleting(tool)}
                    />
                  </div>
                </div>
                <p className="line-clamp-2 text-sm text-muted-foreground">{tool.description || '—'}</p>
                {tool.secret_hint ? (
                  <p className="font-mono text-xs text-muted-foreground">
                    {t('knowledge.connectors.secret')}: {tool.secret_hint}
                  </p>
                ) : null}
              </Card>
            </li>
          ))}
        </ul>
      )}
      <SettingsDialog
        open={dialog !== null}
        item={editing ? { ...editing, kind: editing.type } : null}
        kinds={(types.data ?? []).map((k) => ({ ...k, kind: k.type }))}
        kindsState={types.status}
        texts={{
          pickTitle: t('knowledge.tools.pickTitle'),
          pickDescription: t('knowledge.tools.pickDescription'),
          createTitle: (kind) => t('knowledge.tools.createTitle', { kind }),
          editTitle: t('knowledge.tools.editTitle', { name: editing?.name }),
          done: t(editing ? 'knowledge.tools.updated' : 'knowledge.tools.created'),
        }}
        onSubmit={async (kind, form) => {
          const body = settingsFormBody(kind.fields, form);
          if (editing) await updateTool(editing.tool_id, body);
          else await createTool({ workspace_id: workspaceId, type: kind.kind as Tool['type'], ...body });
          await refresh();
        }}
        onClose={() => setDialog(null)}
      />
      <ConfirmDelete
        open={deleting !== null}
        title={t('knowledge.tools.deleteTitle')}
        content={t('knowledge.tools.deleteContent', { name: deleting?.name })}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
    </section>
  );
}
