import type { FlowChatbotType } from '@atelier/schemas/constants';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ReactFlowProvider } from '@xyflow/react';
import { ArrowLeft, SearchX } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Sheet, SheetContent, SheetTitle } from '@/components/ui/sheet';
import { useWideScreen } from '@/components/responsive/use-media-query';
import { useAppStore } from '@/stores/app-store';
import { Loading } from '@/features/providers/states';
import { Canvas } from './canvas';
import { differs, readDraft } from './draft';
import { DraftBanner, LeaveGuard } from './editor-guards';
import { useEditorStore } from './editor-store';
import { useFlowActions } from './flow-actions';
import { Inspector } from './inspector';
import { Palette } from './palette';
import {
  ChatModal,
  ExecutionPanel,
  type ExecutionNames,
  resumeActiveRun,
  RunModal,
  RunsList,
  stopFollowing,
  useRunStore,
} from './runs';
import { FlowLoadError, loadFlow, useWorkspaceModels } from './queries';
import { fromConfiguration, toConfiguration } from './serialize';
import { useEditorShortcuts } from './shortcuts';
import { TemplatePicker } from './template-picker';
import { Toolbar } from './toolbar';
import { useAddInView } from './use-add-in-view';
import { useInputFields } from './use-input-fields';

function NotFound({ type }: { type: FlowChatbotType }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto grid max-w-3xl gap-4 p-6" data-testid="flow-not-found">
      <EmptyState
        icon={SearchX}
        title={t(type === 'chatflow' ? 'flow.notFound.chatflow' : 'flow.notFound.workflow')}
        text={t('flow.notFound.text')}
        action={
          <Button variant="outline" asChild>
            <Link to="/studio">
              <ArrowLeft /> {t('flow.toolbar.back')}
            </Link>
          </Button>
        }
      />
    </div>
  );
}

function LoadFailure({ error, chatbotId }: { error: unknown; chatbotId: string }) {
  const { t } = useTranslation();
  const invalidType = error instanceof FlowLoadError && error.kind === 'invalid_type';
  return (
    <div className="mx-auto grid max-w-3xl gap-3 p-6" role="alert" data-testid="flow-load-error">
      <p className="text-sm font-medium text-destructive">
        {invalidType ? t('flow.errors.invalidType') : t('flow.errors.fetchConfig')}
      </p>
      <Link
        to={invalidType ? '/studio/simple/$chatbotId' : '/studio'}
        params={{ chatbotId }}
        className="text-sm text-primary hover:underline"
      >
        {t('flow.toolbar.back')}
      </Link>
    </div>
  );
}

/** The model names and node labels the execution panel shows instead of ids. */
function useExecutionNames(): ExecutionNames {
  const workspaceId = useAppStore((s) => s.selectedWorkspaceId);
  const models = useWorkspaceModels(workspaceId);
  return useMemo(
    () => ({
      label: (id) => useEditorStore.getState().nodes.find((n) => n.id === id)?.data.label || undefined,
      model: (id) => {
        const m = models.data?.find((x) => x.id === id);
        return m ? `${m.name} · ${m.provider.name}` : undefined;
      },
    }),
    [models.data],
  );
}

/**
 * On a phone the inspector is a bottom sheet: it opens with a selected node (and its run result, if
 * any) and closing it clears the selection.
 */
function InspectorSheet({ names }: { names: ExecutionNames }) {
  const { t } = useTranslation();
  const selected = useEditorStore((s) => s.selectedNodeId);
  const execution = useRunStore((s) => s.selectedExecutionNodeId);
  const close = () => {
    useEditorStore.getState().selectNode(null);
    useRunStore.getState().clearSelectedExecution();
  };
  return (
    <Sheet open={selected !== null || execution !== null} onOpenChange={(open) => !open && close()}>
      <SheetContent
        side="bottom"
        closeLabel={t('flow.inspector.close')}
        closeButton={false}
        aria-describedby={undefined}
        data-testid="inspector-sheet"
      >
        <SheetTitle className="sr-only">{t('canvas.sheet.inspector')}</SheetTitle>
        <div className="min-h-0 flex-1 overflow-y-auto">
          <ExecutionPanel names={names} className="rounded-none border-0 border-b shadow-none sm:w-full" />
          {selected !== null && <Inspector className="h-auto w-full overflow-visible border-l-0" />}
        </div>
      </SheetContent>
    </Sheet>
  );
}

function Editor({ type, chatbotId }: { type: FlowChatbotType; chatbotId: string }) {
  const { t } = useTranslation();
  const wide = useWideScreen();
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const [tryOpen, setTryOpen] = useState(false);
  const [runsOpen, setRunsOpen] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const actions = useFlowActions(chatbotId);
  const addInView = useAddInView();
  const inputFields = useInputFields();
  const names = useExecutionNames();
  useEditorShortcuts({ save: () => void actions.save() });

  useEffect(() => {
    // Spec section 2: the picker opens by itself when the loaded configuration has no nodes (unless a
    // draft of this flow waits to be restored: the banner offers that first).
    const loaded = useEditorStore.getState();
    const draft = readDraft(chatbotId);
    if (loaded.nodes.length === 0 && !(draft && differs(draft, loaded))) setTemplatesOpen(true);
    // A run that was going on before a reload is followed again (or shown, if it has ended).
    void resumeActiveRun(chatbotId);
    return () => {
      stopFollowing();
      useRunStore.getState().reset();
    };
  }, [chatbotId]);

  const getDraft = () => toConfiguration(useEditorStore.getState());
  const Try = type === 'chatflow' ? ChatModal : RunModal;

  return (
    <div className="flex h-[calc(100dvh-3.5rem-1px)] flex-col" data-testid="flow-editor">
      <Toolbar
        type={type}
        saving={actions.saving}
        publishing={actions.publishing}
        onSave={() => void actions.save()}
        onPublish={() => void actions.publish()}
        onTemplates={() => setTemplatesOpen(true)}
        onRuns={() => setRunsOpen(true)}
        onTry={() => setTryOpen(true)}
        onAddNode={() => setPaletteOpen(true)}
      />
      <DraftBanner chatbotId={chatbotId} />
      <div className="flex min-h-0 flex-1">
        {wide && <Palette onAdd={addInView} />}
        <div className="relative flex min-w-0 flex-1">
          <Canvas />
          {wide && (
            <div className="pointer-events-none absolute inset-y-3 right-3 z-10 flex">
              <div className="pointer-events-auto flex max-h-full">
                <ExecutionPanel names={names} />
              </div>
            </div>
          )}
        </div>
        {wide && <Inspector />}
      </div>
      {!wide && (
        <>
          <InspectorSheet names={names} />
          <Sheet open={paletteOpen} onOpenChange={setPaletteOpen}>
            <SheetContent side="left" closeLabel={t('flow.inspector.close')} aria-describedby={undefined}>
              <SheetTitle className="px-4 pt-4">{t('canvas.sheet.palette')}</SheetTitle>
              <Palette
                className="min-h-0 w-full flex-1 border-r-0"
                onAdd={(nodeType) => {
                  setPaletteOpen(false);
                  addInView(nodeType);
                }}
              />
            </SheetContent>
          </Sheet>
        </>
      )}
      <TemplatePicker open={templatesOpen} onOpenChange={setTemplatesOpen} type={type} />
      <Try
        chatbotId={chatbotId}
        open={tryOpen}
        onOpenChange={setTryOpen}
        getDraft={getDraft}
        inputFields={inputFields}
      />
      <Dialog open={runsOpen} onOpenChange={setRunsOpen}>
        <DialogContent className="max-w-2xl" closeLabel={t('flow.inspector.close')}>
          <DialogTitle className="sr-only">{t('flow.toolbar.runs')}</DialogTitle>
          <RunsList chatbotId={chatbotId} onOpen={() => setRunsOpen(false)} />
        </DialogContent>
      </Dialog>
      <LeaveGuard />
    </div>
  );
}

/** /studio/chatflow/$chatbotId and /studio/workflow/$chatbotId: the canvas editors. */
export function FlowEditorPage({ type }: { type: FlowChatbotType }) {
  const { chatbotId = '' } = useParams({ strict: false });
  const load = useQuery({
    queryKey: ['flow', chatbotId, type],
    queryFn: () => loadFlow(chatbotId, type),
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
  const [readyFor, setReadyFor] = useState<string | null>(null);

  useEffect(() => {
    if (!load.data) return;
    useEditorStore.getState().load(load.data.chatbot, fromConfiguration(load.data.configuration).graph);
    setReadyFor(chatbotId);
    return () => useEditorStore.getState().reset();
  }, [load.data, chatbotId]);

  if (load.isPending) return <Loading />;
  if (load.isError) {
    if (load.error instanceof FlowLoadError && load.error.kind === 'not_found')
      return <NotFound type={type} />;
    return <LoadFailure error={load.error} chatbotId={chatbotId} />;
  }
  if (readyFor !== chatbotId) return <Loading />;
  return (
    <ReactFlowProvider key={chatbotId}>
      <Editor type={type} chatbotId={chatbotId} />
    </ReactFlowProvider>
  );
}
