import { useTranslation } from 'react-i18next';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Pager } from './pager';
import type { PreviewPage } from './queries';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A page of a connector collection's rows, ten at a time. */
export function PreviewTable({ page, onPage }: { page: PreviewPage | null; onPage(offset: number): void }) {
  const { t } = useTranslation();
  if (page === null)
    return (
      <div
        role="status"
        aria-label={t('common.loading')}
        className="h-40 animate-pulse rounded-lg bg-muted"
      />
    );
  const from = page.rows.length ? page.offset + 1 : 0;
  return (
    <div className="grid gap-2" data-testid="preview-table">
      <h3 className="text-sm font-medium">{t('knowledge.wizard.source.preview')}</h3>
      {page.rows.length === 0 ? (
        <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
          {t('knowledge.wizard.source.previewEmpty')}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead className="w-32">{t('knowledge.wizard.source.rowId')}</TableHead>
                <TableHead>{t('knowledge.wizard.source.content')}</TableHead>
                <TableHead className="hidden md:table-cell">
                  {t('knowledge.wizard.source.metadata')}
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.rows.map((row) => (
                <TableRow key={row.id}>
                  <TableCell className="max-w-32 truncate font-mono text-xs" title={row.id}>
                    {row.id}
                  </TableCell>
                  <TableCell className="min-w-48 text-xs">{clip(row.content, 240)}</TableCell>
                  <TableCell className="hidden max-w-64 truncate font-mono text-xs text-muted-foreground md:table-cell">
                    {clip(JSON.stringify(row.metadata), 160)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
        <span>{t('knowledge.wizard.source.rows', { from, to: page.offset + page.rows.length })}</span>
        <Pager
          previous={{
            label: t('knowledge.wizard.source.previousRows'),
            disabled: page.offset === 0,
            onClick: () => onPage(Math.max(0, page.offset - page.limit)),
          }}
          next={{
            label: t('knowledge.wizard.source.nextRows'),
            disabled: page.rows.length < page.limit,
            onClick: () => onPage(page.offset + page.limit),
          }}
        />
      </div>
    </div>
  );
}
