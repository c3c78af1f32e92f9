import type { ModelType, ModelWithProvider } from '@atelier/schemas';
import { EditDeleteButtons } from '@/components/ui/edit-delete-buttons';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { MODEL_TYPES } from '@/lib/model-types';
import { modelTypeKey } from './model-type-label';
import { priceSummary } from './pricing';

const ALL = 'all';

/** The workspace's models, filtered by type, each with edit and delete. */
export function ModelsTable({
  models,
  onEdit,
  onDelete,
}: {
  models: ModelWithProvider[];
  onEdit(model: ModelWithProvider): void;
  onDelete(model: ModelWithProvider): void;
}) {
  const { t, i18n } = useTranslation();
  const filterId = useId();
  const [type, setType] = useState<ModelType | typeof ALL>(ALL);
  const shown = type === ALL ? models : models.filter((m) => m.model_type === type);
  const present = MODEL_TYPES.filter((ty) => models.some((m) => m.model_type === ty));
  const price = (model: ModelWithProvider) =>
    priceSummary(
      model.pricing,
      i18n.language,
      (field, value) => t(`providers.pricing.short.${field}`, { value }),
      t('providers.pricing.free'),
    );

  return (
    <div className="grid min-w-0 grid-cols-1">
      <div className="flex flex-wrap items-center gap-2 border-b p-3">
        <Label htmlFor={filterId} className="text-muted-foreground">
          {t('providers.models.filter')}
        </Label>
        <Select value={type} onValueChange={(v) => setType(v as ModelType | typeof ALL)}>
          <SelectTrigger id={filterId} className="w-56 max-w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>{t('providers.models.allTypes')}</SelectItem>
            {present.map((ty) => (
              <SelectItem key={ty} value={ty}>
                {t(modelTypeKey(ty))}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <span className="ml-auto text-xs text-muted-foreground">
          {t('providers.models.count', { shown: shown.length, total: models.length })}
        </span>
      </div>
      {shown.length === 0 ? (
        <div className="flex flex-col items-center gap-2 p-8 text-center text-sm text-muted-foreground">
          {t('providers.models.noneOfType')}
          <Button variant="link" size="sm" onClick={() => setType(ALL)}>
            {t('providers.models.showAll')}
          </Button>
        </div>
      ) : (
        <Table data-testid="models-table" stack>
          <TableHeader>
            <TableRow>
              <TableHead>{t('providers.models.name')}</TableHead>
              <TableHead>{t('providers.models.modelName')}</TableHead>
              <TableHead>{t('providers.models.type')}</TableHead>
              <TableHead>{t('providers.models.provider')}</TableHead>
              <TableHead>{t('providers.models.price')}</TableHead>
              <TableHead>{t('providers.models.description')}</TableHead>
              <TableHead className="text-right">{t('common.actions')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {shown.map((model) => (
              <TableRow key={model.id}>
                <TableCell className="whitespace-nowrap font-medium" label={t('providers.models.name')}>
                  {model.name || model.model_name}
                </TableCell>
                <TableCell
                  className="whitespace-nowrap font-mono text-xs"
                  label={t('providers.models.modelName')}
                >
                  {model.model_name}
                </TableCell>
                <TableCell label={t('providers.models.type')}>
                  <Badge
                    variant="secondary"
                    className="whitespace-nowrap text-xs font-medium normal-case tracking-normal"
                  >
                    {t(modelTypeKey(model.model_type))}
                  </Badge>
                </TableCell>
                <TableCell className="whitespace-nowrap" label={t('providers.models.provider')}>
                  {model.provider.name}
                </TableCell>
                <TableCell className="whitespace-nowrap text-xs" label={t('providers.models.price')}>
                  {price(model)}
                </TableCell>
                <TableCell
                  className="max-w-64 truncate text-muted-foreground"
                  title={model.description || undefined}
                  label={t('providers.models.description')}
                >
                  {model.description || '—'}
                </TableCell>
                <TableCell className="whitespace-nowrap text-right" actions>
                  <EditDeleteButtons
                    editLabel={t('providers.models.edit', { name: model.name || model.model_name })}
                    deleteLabel={t('providers.models.delete', { name: model.name || model.model_name })}
                    onEdit={() => onEdit(model)}
                    onDelete={() => onDelete(model)}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
