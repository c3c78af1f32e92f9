import type { RagCollection, RagDocument } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { FileText, Search, Tags } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { ConfirmDelete } from '@/features/providers/states';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import {
  collectionKey,
  collectionsKey,
  addWebPages,
  deleteDocument,
  documentsKey,
  isIngesting,
  useDocuments,
} from './queries';
import { LoadError } from '@/components/load-error';
import { DocumentChunksDialog } from './document-chunks-dialog';
import { DocumentFieldsDialog } from './document-fields-dialog';
import { DocumentsFieldsDialog } from './documents-fields-dialog';
import {
  countByState,
  DOCUMENT_STATES,
  filterDocuments,
  FILTER_FROM,
  ROWS_STEP,
  type DocumentState,
} from './document-filter';
import { DocumentItem } from './document-item';
import { UploadZone } from './upload-zone';
import { WebPagesDialog } from './web-pages-dialog';

/**
 * Upload into a collection (or add web pages) and follow each document from queued to ready (or
 * failed).
 */
export function DocumentsPanel({ collection }: { collection: RagCollection }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const documents = useDocuments(collection.id);
  const [deleting, setDeleting] = useState<RagDocument | null>(null);
  const [showing, setShowing] = useState<RagDocument | null>(null);
  const [editing, setEditing] = useState<RagDocument | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [editingMany, setEditingMany] = useState<RagDocument[] | null>(null);
  const [addingWeb, setAddingWeb] = useState(false);
  const [text, setText] = useState('');
  const [state, setState] = useState<DocumentState>('all');
  const [rows, setRows] = useState(ROWS_STEP);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: documentsKey(collection.id) });
    await queryClient.invalidateQueries({ queryKey: collectionKey(collection.id) });
  };

  // When the last document settles, the collection's counts have changed too.
  const ingesting = isIngesting(documents.data);
  const wasIngesting = useRef(false);
  useEffect(() => {
    if (wasIngesting.current && !ingesting) {
      void queryClient.invalidateQueries({ queryKey: collectionKey(collection.id) });
      void queryClient.invalidateQueries({ queryKey: collectionsKey(collection.workspace_id) });
    }
    wasIngesting.current = ingesting;
  }, [ingesting, collection.id, collection.workspace_id, queryClient]);

  /** A web page fetched again (smart insertion skips its chunks that did not change). */
  async function refetch(url: string) {
    try {
      await addWebPages(collection.id, { url });
      toast.success(t('knowledge.web.refetched'));
    } catch (error) {
      toast.error(t('knowledge.web.failed'), errorText(error, t('errors.unknown')));
    }
    await refresh();
  }

  async function remove(document: RagDocument) {
    try {
      await deleteDocument(collection.id, document.id);
      toast.success(t('knowledge.documents.deleted'));
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    }
    await refresh();
  }

  if (!collection.writable) {
    return (
      <p className="rounded-xl border border-dashed p-4 text-sm text-muted-foreground">
        {t('knowledge.documents.readOnly')}
      </p>
    );
  }
  return (
    <div className="grid gap-4">
      <UploadZone
        collectionId={collection.id}
        onUploaded={() => void refresh()}
        onAddFromWeb={() => setAddingWeb(true)}
      />
      <WebPagesDialog
        collectionId={collection.id}
        open={addingWeb}
        onClose={() => setAddingWeb(false)}
        onAdded={() => void refresh()}
      />
      <section aria-labelledby="documents-heading" className="grid gap-2">
        <h2 id="documents-heading" className="text-lg font-semibold tracking-tight">
          {t('knowledge.documents.title')}
        </h2>
        {documents.isPending ? (
          <div role="status" aria-label={t('common.loading')} className="grid gap-2">
            {[0, 1, 2].map((i) => (
              <div key={i} className="h-14 animate-pulse rounded-lg bg-muted" />
            ))}
          </div>
        ) : documents.isError ? (
          <LoadError onRetry={() => void documents.refetch()} />
        ) : documents.data.length === 0 ? (
          <EmptyState
            icon={FileText}
            title={t('knowledge.documents.emptyTitle')}
            text={t('knowledge.documents.emptyText')}
          />
        ) : (
          <DocumentRows
            documents={documents.data}
            filter={{ text, state }}
            onFilter={(next) => {
              setText(next.text);
              setState(next.state);
              setRows(ROWS_STEP);
            }}
            rows={rows}
            onMore={() => setRows(rows + ROWS_STEP)}
            onRefetch={(url) => void refetch(url)}
            selected={selected}
            onSelect={setSelected}
            onEditSelected={(chosen) => setEditingMany(chosen)}
            onShowChunks={setShowing}
            onEditFields={setEditing}
            onDelete={setDeleting}
          />
        )}
      </section>
      <DocumentChunksDialog
        collectionId={collection.id}
        document={showing}
        onClose={() => setShowing(null)}
      />
      <DocumentFieldsDialog
        collectionId={collection.id}
        document={editing}
        onClose={() => setEditing(null)}
      />
      <DocumentsFieldsDialog
        collectionId={collection.id}
        documents={editingMany}
        onClose={() => setEditingMany(null)}
        onSaved={() => setSelected(new Set())}
      />
      <ConfirmDelete
        open={deleting !== null}
        title={t('knowledge.documents.deleteTitle')}
        content={t('knowledge.documents.deleteContent', { name: deleting?.filename })}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
    </div>
  );
}

/**
 * The documents, newest first: from `FILTER_FROM` documents on, found by name and filtered by state
 * (with each state's count); `rows` drawn, more on demand.
 */
function DocumentRows({
  documents,
  filter,
  onFilter,
  rows,
  onMore,
  selected,
  onSelect,
  onEditSelected,
  onRefetch,
  onShowChunks,
  onEditFields,
  onDelete,
}: {
  documents: RagDocument[];
  filter: { text: string; state: DocumentState };
  onFilter(filter: { text: string; state: DocumentState }): void;
  rows: number;
  onMore(): void;
  selected: ReadonlySet<string>;
  onSelect(selected: ReadonlySet<string>): void;
  onEditSelected(documents: RagDocument[]): void;
  onRefetch(url: string): void;
  onShowChunks(document: RagDocument): void;
  onEditFields(document: RagDocument): void;
  onDelete(document: RagDocument): void;
}) {
  const { t } = useTranslation();
  const selectAllId = useId();
  const counts = countByState(documents);
  const shown = filterDocuments(documents, filter);
  // What is chosen among the documents there still are (a deleted one leaves the choice).
  const chosen = documents.filter((d) => selected.has(d.id));
  const allShown = shown.length > 0 && shown.every((d) => selected.has(d.id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen.map((d) => d.id));
    if (on) next.add(id);
    else next.delete(id);
    onSelect(next);
  };
  return (
    <>
      {documents.length >= FILTER_FROM ? (
        <div className="flex flex-wrap gap-2" data-testid="documents-filter">
          <div className="relative min-w-48 flex-1">
            <Search className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground" />
            <Input
              type="search"
              value={filter.text}
              onChange={(e) => onFilter({ ...filter, text: e.target.value })}
              placeholder={t('knowledge.documents.find')}
              aria-label={t('knowledge.documents.find')}
              className="pl-8"
            />
          </div>
          <Select
            value={filter.state}
            onValueChange={(v) => onFilter({ ...filter, state: v as DocumentState })}
          >
            <SelectTrigger className="w-auto min-w-40" aria-label={t('knowledge.documents.stateFilter')}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {DOCUMENT_STATES.map((s) => (
                <SelectItem key={s} value={s}>
                  {t(`knowledge.documents.states.${s}`, { count: counts[s] })}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      ) : null}
      {documents.length > 1 ? (
        <div
          className="flex min-h-9 flex-wrap items-center gap-x-3 gap-y-2"
          data-testid="documents-selection"
        >
          <div className="flex items-center gap-2 pl-3">
            <Checkbox
              id={selectAllId}
              checked={allShown ? true : chosen.length > 0 ? 'indeterminate' : false}
              onCheckedChange={(checked) =>
                onSelect(checked === true ? new Set([...chosen, ...shown].map((d) => d.id)) : new Set())
              }
            />
            <Label htmlFor={selectAllId} className="text-sm font-normal">
              {chosen.length
                ? t('knowledge.documents.selected', { count: chosen.length })
                : t('knowledge.documents.selectAll')}
            </Label>
          </div>
          {chosen.length ? (
            <>
              <Button size="sm" variant="outline" onClick={() => onEditSelected(chosen)}>
                <Tags /> {t('knowledge.fields.editMany')}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => onSelect(new Set())}>
                {t('knowledge.documents.clearSelection')}
              </Button>
            </>
          ) : null}
        </div>
      ) : null}
      {shown.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          {t('knowledge.documents.noMatch')}
        </p>
      ) : (
        <ul className="grid gap-2" data-testid="documents-list">
          {shown.slice(0, rows).map((d) => (
            <DocumentItem
              key={d.id}
              document={d}
              selected={selected.has(d.id)}
              onSelect={(on) => toggle(d.id, on)}
              onRefetch={onRefetch}
              onShowChunks={() => onShowChunks(d)}
              onEditFields={() => onEditFields(d)}
              onDelete={() => onDelete(d)}
            />
          ))}
        </ul>
      )}
      {shown.length > rows ? (
        <Button variant="outline" className="justify-self-center" onClick={onMore}>
          {t('knowledge.documents.showMore', { total: shown.length - rows })}
        </Button>
      ) : null}
    </>
  );
}
