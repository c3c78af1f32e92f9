import { referenceTo } from '@atelier/schemas';
import { Braces } from 'lucide-react';
import { type ComponentProps, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import { useNodeTitle } from './node-text';
import { insertAt, type ReferenceSource } from './references';

/** The "insert a variable" menu: upstream nodes and their outputs, nothing else. */
export function VariableMenu({ sources, onPick }: { sources: ReferenceSource[]; onPick(ref: string): void }) {
  const { t } = useTranslation();
  const title = useNodeTitle();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="h-6 gap-1 px-1.5 text-xs"
          title={t('flow.inspector.insertVariable')}
        >
          <Braces className="size-3.5" /> {t('flow.inspector.variable')}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="max-h-80 w-64 overflow-y-auto" data-testid="variable-menu">
        {sources.length === 0 && (
          <p className="px-2 py-1.5 text-xs text-muted-foreground">{t('flow.inspector.noUpstream')}</p>
        )}
        {sources.map((source, i) => (
          <div key={source.nodeId}>
            {i > 0 && <DropdownMenuSeparator />}
            <DropdownMenuLabel className="truncate text-xs">
              {title(source.type, source.label) || source.nodeId}{' '}
              <span className="font-mono text-[10px] text-muted-foreground">{source.nodeId}</span>
            </DropdownMenuLabel>
            {source.outputs.map((output) => (
              <DropdownMenuItem
                key={output}
                className="font-mono text-xs"
                onSelect={() => onPick(referenceTo(source.nodeId, output))}
              >
                {output}
              </DropdownMenuItem>
            ))}
          </div>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

type TextProps = Omit<ComponentProps<'textarea'>, 'value' | 'onChange'> & {
  value: string;
  onChange(value: string): void;
  sources: ReferenceSource[];
  multiline?: boolean;
  label: string;
  error?: string | undefined;
};

/** A text field whose variable menu inserts `{{#node.output#}}` at the caret. */
export function ReferenceInput({
  value,
  onChange,
  sources,
  multiline,
  label,
  error,
  id,
  className,
  ...rest
}: TextProps) {
  const ref = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const insert = (reference: string) => {
    const el = ref.current;
    const { text, caret } = insertAt(value, el ? el.selectionStart : null, reference);
    onChange(text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(caret, caret);
    });
  };
  const shared = {
    id,
    ref,
    value,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
  return (
    <div className="grid gap-1">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-xs font-medium">
          {label}
        </label>
        <VariableMenu sources={sources} onPick={insert} />
      </div>
      {multiline ? (
        <textarea
          {...rest}
          {...shared}
          onChange={(e) => onChange(e.target.value)}
          className={cn(
            'min-h-24 w-full rounded-md border bg-background px-2.5 py-1.5 font-mono text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive',
            className,
          )}
        />
      ) : (
        <Input
          {...shared}
          onChange={(e) => onChange(e.target.value)}
          className="h-8 font-mono text-xs aria-invalid:border-destructive"
        />
      )}
    </div>
  );
}
