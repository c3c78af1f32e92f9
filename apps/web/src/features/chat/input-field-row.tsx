import type { InputFieldType } from '@atelier/schemas';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { type ChatError, chatErrorText } from './errors';
import { acceptFor, coerceBoolean, isFileType, isMultipleFiles, type InputValue } from './input-fields';

const textarea =
  'min-h-16 w-full rounded-md border border-input bg-transparent px-3 py-2 font-mono text-xs shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive disabled:opacity-50';

export interface InputFieldRowProps {
  name: string;
  type: InputFieldType;
  mandatory: boolean;
  value: InputValue;
  id: string;
  error: ChatError | undefined;
  onChange(value: InputValue): void;
  disabled?: boolean;
  /** Show the field's type beside its name (the editor's test runs do; the chat does not). */
  showType?: boolean;
}

function FieldControl({ type, value, id, error, onChange: set, disabled = false }: InputFieldRowProps) {
  const { t } = useTranslation();
  const aria = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  if (type === 'boolean') {
    return (
      <div className="flex items-center gap-2">
        <Checkbox
          {...aria}
          disabled={disabled}
          checked={coerceBoolean(value)}
          onCheckedChange={(checked) => set(checked === true)}
        />
        <span className="text-sm text-muted-foreground">{t('chatPage.inputs.enabled')}</span>
      </div>
    );
  }
  if (isFileType(type)) {
    const multiple = isMultipleFiles(type);
    const files = Array.isArray(value) ? value : value instanceof File ? [value] : [];
    return (
      <div className="flex flex-wrap items-center gap-2">
        <Input
          {...aria}
          type="file"
          multiple={multiple}
          disabled={disabled}
          accept={acceptFor(type)}
          title={t(multiple ? 'chatPage.inputs.chooseFiles' : 'chatPage.inputs.chooseFile')}
          className="h-auto max-w-xs py-1 text-xs"
          onChange={(e) => {
            const chosen = Array.from(e.target.files ?? []);
            set(multiple ? chosen : (chosen[0] ?? null));
          }}
        />
        <span className="min-w-0 truncate text-xs text-muted-foreground">
          {files.length > 0 ? files.map((f) => f.name).join(', ') : t('chatPage.inputs.noFile')}
        </span>
        {files.length > 0 && (
          <Button
            type="button"
            size="icon"
            variant="ghost"
            className="size-7"
            disabled={disabled}
            onClick={() => set(multiple ? [] : null)}
            aria-label={t('chatPage.inputs.removeFiles')}
          >
            <X />
          </Button>
        )}
      </div>
    );
  }
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  if (type === 'string' || type === 'number') {
    return (
      <Input
        {...aria}
        disabled={disabled}
        type={type === 'number' ? 'number' : 'text'}
        value={text}
        onChange={(e) => set(e.target.value)}
      />
    );
  }
  // Objects and lists are typed as JSON.
  return (
    <textarea
      {...aria}
      disabled={disabled}
      className={textarea}
      rows={3}
      spellCheck={false}
      value={text}
      onChange={(e) => set(e.target.value)}
    />
  );
}

/** One additional input (chat) or run input (editor): its name, mandatory mark, control and problem. */
export function InputFieldRow(props: InputFieldRowProps) {
  const { t } = useTranslation();
  const { name, type, mandatory, id, error, showType } = props;
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id} className="flex items-center gap-1.5">
        <span className="font-mono text-xs">{name}</span>
        {showType && <span className="text-[10px] text-muted-foreground">{type}</span>}
        {mandatory && (
          <span className="text-xs text-destructive">
            * <span className="sr-only">{t('chatPage.inputs.required')}</span>
          </span>
        )}
      </Label>
      <FieldControl {...props} />
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs text-destructive">
          {chatErrorText(t, error)}
        </p>
      )}
    </div>
  );
}
