import { isExactOrigin, MAX_EMBED_ORIGINS } from '@atelier/schemas/constants';
import { Globe, Plus, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** The sites allowed to show the chat: exact origins, added one by one, each removable. */
export function EmbedOrigins({
  origins,
  onChange,
}: {
  origins: string[];
  onChange(origins: string[]): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);

  const add = (event: FormEvent) => {
    event.preventDefault();
    const origin = draft.trim().replace(/\/$/, '');
    if (!isExactOrigin(origin)) return setError(t('embed.originInvalid'));
    if (origins.includes(origin)) return setError(t('embed.originTwice'));
    if (origins.length >= MAX_EMBED_ORIGINS)
      return setError(t('embed.originsMax', { max: MAX_EMBED_ORIGINS }));
    onChange([...origins, origin]);
    setDraft('');
    setError(null);
  };

  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{t('embed.origins')}</Label>
      <p className="text-sm text-muted-foreground">{t('embed.originsHint')}</p>
      {origins.length === 0 ? (
        <p className="flex items-center gap-2 rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
          <Globe className="size-4 shrink-0" aria-hidden /> {t('embed.originsEmpty')}
        </p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-label={t('embed.origins')}>
          {origins.map((origin) => (
            <li
              key={origin}
              className="flex items-center gap-1 rounded-full border bg-muted/40 py-0.5 pl-3 pr-1 font-mono text-xs"
            >
              <span className="break-all">{origin}</span>
              <Button
                type="button"
                size="icon"
                variant="ghost"
                className="size-6 rounded-full"
                aria-label={t('embed.removeOrigin', { origin })}
                onClick={() => onChange(origins.filter((o) => o !== origin))}
              >
                <X className="size-3.5" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={add} className="flex flex-wrap gap-2" noValidate>
        <Input
          id={id}
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
          placeholder="https://shop.example.com"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="min-w-0 flex-1 font-mono text-sm"
          inputMode="url"
          autoComplete="off"
        />
        <Button type="submit" variant="outline">
          <Plus /> {t('embed.addOrigin')}
        </Button>
      </form>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
