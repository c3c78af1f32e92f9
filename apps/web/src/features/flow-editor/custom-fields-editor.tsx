import { type InputCustomField, inputCustomField } from '@atelier/schemas';
import { inputFieldTypes } from '@atelier/schemas/constants';
import { Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/** The next unused `field_N` name. */
const freshName = (fields: readonly InputCustomField[]) => {
  const names = new Set(fields.map((f) => f.name));
  let i = fields.length + 1;
  while (names.has(`field_${i}`)) i++;
  return `field_${i}`;
};

/** The input node's custom fields: what a run asks for besides the query (name, type, mandatory). */
export function CustomFieldsEditor({
  nodeId,
  value,
  onChange,
}: {
  nodeId: string;
  value: unknown;
  onChange(fields: InputCustomField[]): void;
}) {
  const { t } = useTranslation();
  const fields = (Array.isArray(value) ? value : []) as InputCustomField[];
  const names = fields.map((f) => f.name.trim());
  const update = (i: number, patch: Partial<InputCustomField>) =>
    onChange(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));

  return (
    <div className="grid gap-2" data-testid="custom-fields">
      <div className="flex items-center justify-between">
        <span className="text-xs font-medium">{t('flow.customFields.title')}</span>
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="h-7"
          onClick={() =>
            onChange([...fields, { name: freshName(fields), type: 'string', isMandatory: false }])
          }
        >
          <Plus /> {t('flow.customFields.add')}
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">{t('flow.customFields.help')}</p>
      {fields.map((field, i) => {
        const parsed = inputCustomField.safeParse(field);
        const duplicate = names.indexOf(field.name.trim()) !== i;
        const error = !parsed.success
          ? parsed.error.issues[0]?.message
          : duplicate
            ? t('flow.customFields.duplicate')
            : undefined;
        const id = `custom-${nodeId}-${i}`;
        return (
          <div key={i} className="grid gap-1.5 rounded-md border p-2">
            <div className="flex gap-1.5">
              <Input
                id={id}
                aria-label={t('flow.customFields.name')}
                value={field.name}
                aria-invalid={error ? true : undefined}
                onChange={(e) => update(i, { name: e.target.value })}
                className="h-8 flex-1 font-mono text-xs aria-invalid:border-destructive"
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-8"
                aria-label={t('flow.customFields.remove')}
                onClick={() => onChange(fields.filter((_, j) => j !== i))}
              >
                <Trash2 />
              </Button>
            </div>
            <div className="flex items-center gap-2">
              <Select
                value={field.type}
                onValueChange={(type) => update(i, { type: type as InputCustomField['type'] })}
              >
                <SelectTrigger className="h-8 flex-1 text-xs" aria-label={t('flow.customFields.type')}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {inputFieldTypes.map((type) => (
                    <SelectItem key={type} value={type}>
                      {type}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <label className="flex items-center gap-1.5 text-xs">
                <Checkbox
                  checked={field.isMandatory}
                  onCheckedChange={(v) => update(i, { isMandatory: v === true })}
                />
                {t('flow.customFields.mandatory')}
              </label>
            </div>
            {error && (
              <p role="alert" className="text-xs text-destructive">
                {error}
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}
