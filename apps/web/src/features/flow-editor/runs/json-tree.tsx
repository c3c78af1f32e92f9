import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import { previewString } from './media';

/** Children shown per object or list before a "show all" button: huge outputs stay usable. */
const PAGE = 50;

function Scalar({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-muted-foreground">null</span>;
  if (typeof value === 'string') {
    return (
      <span
        className="whitespace-pre-wrap break-all text-emerald-700 dark:text-emerald-300"
        title={value.length > 160 ? value.slice(0, 2000) : undefined}
      >
        &quot;{previewString(value)}&quot;
      </span>
    );
  }
  if (typeof value === 'number')
    return <span className="text-sky-700 dark:text-sky-300">{String(value)}</span>;
  if (typeof value === 'boolean')
    return <span className="text-amber-700 dark:text-amber-300">{String(value)}</span>;
  return <span>{String(value)}</span>;
}

function Branch({ name, value, depth }: { name: ReactNode; value: object; depth: number }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const [open, bracketClose] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const shown = all ? entries : entries.slice(0, PAGE);
  return (
    // Open near the top, closed deeper: the shape shows at once, detail on demand.
    <details open={depth < 2} className="group">
      <summary className="cursor-pointer list-none select-none rounded px-0.5 hover:bg-muted [&::-webkit-details-marker]:hidden">
        <span className="inline-block w-3 text-muted-foreground transition-transform group-open:rotate-90">
          ›
        </span>
        {name}
        <span className="text-muted-foreground">
          {open}
          <span className="group-open:hidden">
            {' '}
            {t('flowRuns.json.items', { count: entries.length })} {bracketClose}
          </span>
        </span>
      </summary>
      <div className="ml-3 border-l pl-2">
        {shown.map(([key, child]) => (
          <JsonNode key={key} name={key} value={child} depth={depth + 1} />
        ))}
        {entries.length > shown.length && (
          <button
            type="button"
            className="text-primary underline-offset-2 hover:underline"
            onClick={() => setAll(true)}
          >
            {t('flowRuns.json.showAll', { count: entries.length })}
          </button>
        )}
      </div>
      <span className="ml-3 text-muted-foreground">{bracketClose}</span>
    </details>
  );
}

function JsonNode({ name, value, depth }: { name?: string; value: unknown; depth: number }) {
  const label = name === undefined ? null : <span className="text-foreground/80">{name}: </span>;
  if (typeof value === 'object' && value !== null) {
    const empty = Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
    if (!empty) return <Branch name={label} value={value} depth={depth} />;
    return (
      <div className="pl-3">
        {label}
        <span className="text-muted-foreground">{Array.isArray(value) ? '[]' : '{}'}</span>
      </div>
    );
  }
  return (
    <div className="pl-3">
      {label}
      <Scalar value={value} />
    </div>
  );
}

/** A collapsible view of any JSON value; text is rendered as text, never as HTML. */
export function JsonTree({ value, className }: { value: unknown; className?: string }) {
  return (
    <div
      data-testid="json-tree"
      className={cn('overflow-x-auto rounded-md bg-muted/40 p-2 font-mono text-xs leading-5', className)}
    >
      <JsonNode value={value} depth={0} />
    </div>
  );
}
