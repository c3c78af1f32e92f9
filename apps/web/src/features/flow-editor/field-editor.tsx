import type { FieldMeta, ModelWithProvider } from '@atelier/schemas';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { fieldError, jsonText, jsonValue, numberValue } from './field-rules';
import type { NamedItem } from './queries';
import { optionText } from './node-text';
import { ReferenceInput } from './reference-input';
import type { ReferenceSource } from './references';

export interface FieldContext {
  nodeId: string;
  sources: ReferenceSource[];
  models: ModelWithProvider[] | undefined;
  modelsFailed: boolean;
  collections: NamedItem[] | undefined;
  connectors: NamedItem[] | undefined;
  /** Stored tools of the kind the node uses (a Figma loader's `toolId` lists Figma tools). */
  tools: NamedItem[] | undefined;
  /** A problem the server reported for this field when publishing. */
  problem: string | undefined;
}

interface Props {
  meta: FieldMeta;
  value: unknown;
  onChange(value: unknown): void;
  context: FieldContext;
}

const NONE = '__none__';

function Shell({
  id,
  label,
  error,
  help,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  help?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-1">
      {label && (
        <label htmlFor={id} className="text-xs font-medium">
          {label}
        </label>
      )}
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : help ? (
        <p className="text-xs text-muted-foreground">{help}</p>
      ) : null}
    </div>
  );
}

function Choice({
  id,
  value,
  items,
  onChange,
  placeholder,
  invalid,
}: {
  id: string;
  value: string;
  items: { value: string; label: string }[];
  onChange(v: string): void;
  placeholder: string;
  invalid: boolean;
}) {
  return (
    <Select value={value || NONE} onValueChange={(v) => onChange(v === NONE ? '' : v)}>
      <SelectTrigger
        id={id}
        className="h-8 text-xs aria-invalid:border-destructive"
        aria-invalid={invalid || undefined}
      >
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={NONE} className="text-muted-foreground">
          {placeholder}
        </SelectItem>
        {items.map((item) => (
          <SelectItem key={item.value} value={item.value}>
            {item.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** A JSON field edited as text; the value is kept parsed once it is JSON. */
function JsonField({
  id,
  value,
  onChange,
  invalid,
}: {
  id: string;
  value: unknown;
  onChange(v: unknown): void;
  invalid: boolean;
}) {
  const [text, setText] = useState(() => jsonText(value));
  useEffect(() => {
    // An outside change (undo, template) replaces the text; our own edits keep the caret where it is.
    if (JSON.stringify(jsonValue(text)) !== JSON.stringify(value)) setText(jsonText(value));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return (
    <textarea
      id={id}
      value={text}
      spellCheck={false}
      aria-invalid={invalid || undefined}
      onChange={(e) => {
        setText(e.target.value);
        onChange(jsonValue(e.target.value));
      }}
      className="min-h-20 w-full rounded-md border bg-background px-2.5 py-1.5 font-mono text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive"
    />
  );
}

/** One field of a node, drawn from the catalog's description of it. */
export function FieldEditor({ meta, value, onChange, context }: Props) {
  const { t } = useTranslation();
  const id = `field-${context.nodeId}-${meta.name}`;
  const local = fieldError(meta, meta.kind === 'json' ? jsonText(value) : value);
  const name = t(meta.label);
  const help = meta.help ? t(meta.help) : undefined;
  const error = context.problem ?? (local ? t(local.key, { ...local.values, label: name }) : undefined);
  const label = `${name}${meta.required ? ' *' : ''}`;
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);

  switch (meta.kind) {
    case 'text':
    case 'textarea':
      return (
        <div className="grid gap-1">
          <ReferenceInput
            id={id}
            label={label}
            value={text}
            onChange={onChange}
            sources={context.sources}
            multiline={meta.kind === 'textarea'}
            error={error}
            placeholder={meta.placeholder}
          />
          {error ? (
            <p id={`${id}-error`} role="alert" className="text-xs text-destructive">
              {error}
            </p>
          ) : (
            help && <p className="text-xs text-muted-foreground">{help}</p>
          )}
        </div>
      );
    case 'number':
      return (
        <Shell id={id} label={label} error={error} help={help}>
          <Input
            id={id}
            inputMode="decimal"
            value={text}
            placeholder={meta.placeholder}
            aria-invalid={error ? true : undefined}
            onChange={(e) => onChange(numberValue(e.target.value))}
            className="h-8 text-xs aria-invalid:border-destructive"
          />
        </Shell>
      );
    case 'boolean':
      return (
        <label className="flex items-center gap-2 text-xs font-medium">
          <Checkbox
            id={id}
            checked={value === true || value === 'true'}
            onCheckedChange={(v) => onChange(v === true)}
          />
          {name}
        </label>
      );
    case 'select':
      return (
        <Shell id={id} label={label} error={error} help={help}>
          <Choice
            id={id}
            value={text}
            items={(meta.options ?? []).map((o) => ({ value: o.value, label: optionText(t, o) }))}
            onChange={onChange}
            placeholder={t('flow.inspector.choose')}
            invalid={!!error}
          />
        </Shell>
      );
    case 'secret':
      return (
        <Shell id={id} label={label} error={error} help={help ?? t('flow.inspector.secretHelp')}>
          <Input
            id={id}
            type="password"
            autoComplete="off"
            value={text}
            aria-invalid={error ? true : undefined}
            onChange={(e) => onChange(e.target.value)}
            className="h-8 text-xs"
          />
        </Shell>
      );
    case 'json':
      return (
        <Shell id={id} label={label} error={error} help={help}>
          <JsonField id={id} value={value} onChange={onChange} invalid={!!error} />
        </Shell>
      );
    case 'model': {
      const models = (context.models ?? []).filter((m) => !meta.modelType || m.model_type === meta.modelType);
      const missing = text && context.models && !models.some((m) => m.id === text);
      return (
        <Shell
          id={id}
          label={label}
          error={error ?? (missing ? t('flow.inspector.modelMissing') : undefined)}
          help={
            context.modelsFailed
              ? t('flow.errors.fetchModels')
              : models.length === 0
                ? t('flow.inspector.noModels', { type: meta.modelType })
                : help
          }
        >
          <Choice
            id={id}
            value={text}
            items={models.map((m) => ({ value: m.id, label: `${m.name} · ${m.provider.name}` }))}
            onChange={onChange}
            placeholder={t('flow.inspector.chooseModel')}
            invalid={!!error}
          />
        </Shell>
      );
    }
    case 'collection':
    case 'connector':
    case 'credential': {
      const items =
        meta.kind === 'collection'
          ? context.collections
          : meta.kind === 'connector'
            ? context.connectors
            : context.tools;
      if (items && items.length > 0) {
        return (
          <Shell id={id} label={label} error={error} help={help}>
            <Choice
              id={id}
              value={text}
              items={items.map((i) => ({ value: i.id, label: i.name }))}
              onChange={onChange}
              placeholder={t('flow.inspector.choose')}
              invalid={!!error}
            />
          </Shell>
        );
      }
      return (
        <Shell id={id} label={label} error={error} help={t('flow.inspector.typeId')}>
          <Input
            id={id}
            value={text}
            aria-invalid={error ? true : undefined}
            onChange={(e) => onChange(e.target.value)}
            className="h-8 font-mono text-xs"
          />
        </Shell>
      );
    }
    default:
      return null;
  }
}
