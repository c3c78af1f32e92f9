import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { errorText } from '@/lib/api-client';
import type { RemoteModel } from './import-logic';

/** The checklist of a provider's models; those already in the workspace are ticked and locked. */
export function RemoteModelList({
  id,
  remote,
  shown,
  added,
  chosen,
  onToggle,
}: {
  id: string;
  remote: UseQueryResult<RemoteModel[]> | null;
  shown: RemoteModel[];
  added: Set<string>;
  chosen: Set<string>;
  onToggle(name: string, on: boolean): void;
}) {
  const { t } = useTranslation();
  const message = (text: string, alert = false) => (
    <p
      role={alert ? 'alert' : 'status'}
      className={`p-4 text-sm ${alert ? 'text-destructive' : 'text-muted-foreground'}`}
    >
      {text}
    </p>
  );
  if (!remote || remote.isPending) return message(t('providers.import.loading'));
  if (remote.isError)
    return message(
      t('providers.import.loadFailed', { detail: errorText(remote.error, t('errors.unknown')) }),
      true,
    );
  if (shown.length === 0)
    return message(t(remote.data.length > 0 ? 'providers.import.noMatch' : 'providers.import.none'));
  return (
    <ul className="divide-y">
      {shown.map((m, index) => {
        const done = added.has(m.name);
        return (
          <li key={m.name} className="flex items-center gap-3 px-3 py-2">
            <Checkbox
              id={`${id}-${index}`}
              checked={done || chosen.has(m.name)}
              disabled={done}
              onCheckedChange={(c) => onToggle(m.name, c === true)}
            />
            <Label
              htmlFor={`${id}-${index}`}
              className="min-w-0 flex-1 cursor-pointer truncate font-mono text-xs font-normal leading-5"
              title={m.name}
            >
              {m.name}
            </Label>
            {done ? <Badge variant="outline">{t('providers.import.added')}</Badge> : null}
          </li>
        );
      })}
    </ul>
  );
}
