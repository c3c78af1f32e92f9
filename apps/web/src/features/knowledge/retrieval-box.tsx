import type { QueryCollectionAnswer, RagCollection } from '@atelier/schemas';
import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { Loader2, Search } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch, TextAreaField } from '@/features/studio/controls';
import { errorText } from '@/lib/api-client';
import { fieldValue } from './metadata-fields';
import { queryCollection, useMetadataFields } from './queries';
import { RetrievedChunkItem } from './retrieved-chunk';

/** The filter's "no field" choice (Radix items cannot have an empty value). */
const ANY = '\u0000any';

/**
 * Ask the collection a question and see the chunks it would answer with; when its documents have
 * fields, only the chunks of documents whose field has a value can be asked for.
 */
export function RetrievalBox({ collection }: { collection: RagCollection }) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const [topK, setTopK] = useState(String(collection.top_k));
  const [hybrid, setHybrid] = useState(collection.hybrid);
  const [rerank, setRerank] = useState(collection.rerank_model_id !== null);
  const fields = useMetadataFields(collection.id);
  const [field, setField] = useState(ANY);
  const [value, setValue] = useState('');
  const filter =
    field !== ANY && value.trim() !== '' ? { field, op: 'eq' as const, value: fieldValue(value) } : undefined;
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<QueryCollectionAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const k = Number(topK);
  const topKError =
    /^\d+$/.test(topK) && k >= 1 && k <= KNOWLEDGE_LIMITS.maxTopK
      ? undefined
      : t('knowledge.wizard.errors.topK');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!query.trim() || topKError || busy) return;
    setBusy(true);
    setError(null);
    try {
      setAnswer(
        await queryCollection(collection.id, {
          query: query.trim(),
          top_k: k,
          hybrid,
          rerank,
          ...(filter ? { filter } : {}),
        }),
      );
    } catch (e) {
      setAnswer(null);
      setError(errorText(e, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="grid gap-4" data-testid="retrieval-box">
      <form onSubmit={submit} className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6" noValidate>
        <div className="grid gap-1">
          <h2 className="text-lg font-semibold tracking-tight">{t('knowledge.retrieval.title')}</h2>
          <p className="text-sm text-muted-foreground">{t('knowledge.retrieval.description')}</p>
        </div>
        <TextAreaField
          label={t('knowledge.retrieval.query')}
          placeholder={t('knowledge.retrieval.placeholder')}
          value={query}
          rows={2}
          maxLength={KNOWLEDGE_LIMITS.maxQueryChars}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <div className="flex flex-wrap items-end gap-4">
          <div className="w-24">
            <Field
              label={t('knowledge.retrieval.topK')}
              inputMode="numeric"
              value={topK}
              onChange={(e) => setTopK(e.target.value)}
              error={topKError}
            />
          </div>
          {(
            [
              ['hybrid', hybrid, setHybrid, false],
              ['rerank', rerank, setRerank, collection.rerank_model_id === null],
            ] as const
          ).map(([name, checked, set, disabled]) => (
            <div key={name} className="flex h-9 items-center gap-2">
              <Switch id={`${id}-${name}`} checked={checked} disabled={disabled} onCheckedChange={set} />
              <Label htmlFor={`${id}-${name}`}>{t(`knowledge.retrieval.${name}`)}</Label>
            </div>
          ))}
          {fields.data?.length ? (
            <fieldset className="flex min-w-0 flex-wrap items-end gap-2" data-testid="retrieval-filter">
              <legend className="sr-only">{t('knowledge.retrieval.filter')}</legend>
              <div className="grid gap-1.5">
                <Label htmlFor={`${id}-field`}>{t('knowledge.retrieval.filter')}</Label>
                <Select value={field} onValueChange={setField}>
                  <SelectTrigger id={`${id}-field`} className="w-auto min-w-36 max-w-56">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value={ANY}>{t('knowledge.retrieval.anyDocument')}</SelectItem>
                    {fields.data.map((f) => (
                      <SelectItem key={f.key} value={f.key}>
                        {f.key}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </div>
              {field !== ANY ? (
                <>
                  <span className="pb-2 text-sm text-muted-foreground">=</span>
                  <Input
                    value={value}
                    onChange={(e) => setValue(e.target.value)}
                    aria-label={t('knowledge.retrieval.filterValue', { field })}
                    placeholder={t('knowledge.fields.valuePlaceholder')}
                    list={`${id}-values`}
                    className="w-40"
                  />
                  <datalist id={`${id}-values`}>
                    {(fields.data.find((f) => f.key === field)?.values ?? []).map((v) => (
                      <option key={String(v.value)} value={String(v.value)} />
                    ))}
                  </datalist>
                </>
              ) : null}
            </fieldset>
          ) : null}
          <Button type="submit" className="ml-auto" disabled={busy || !query.trim()}>
            {busy ? <Loader2 className="animate-spin" /> : <Search />} {t('knowledge.retrieval.search')}
          </Button>
        </div>
      </form>
      {error ? (
        <p
          role="alert"
          className="rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
        >
          {error}
        </p>
      ) : null}
      {answer ? (
        <section aria-labelledby={`${id}-results`} className="grid gap-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 id={`${id}-results`} className="font-semibold">
              {t('knowledge.retrieval.results', { count: answer.documents.length })}
            </h3>
            <p className="text-xs text-muted-foreground">
              {t('knowledge.retrieval.took', { ms: Math.round(answer.took_ms) })}
              {answer.hybrid ? ` · ${t('knowledge.retrieval.hybrid')}` : ''}
              {answer.reranked ? ` · ${t('knowledge.retrieval.reranked')}` : ''}
            </p>
          </div>
          {answer.documents.length === 0 ? (
            <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
              {t('knowledge.retrieval.none')}
            </p>
          ) : (
            <ol className="grid gap-2" data-testid="retrieval-results">
              {answer.documents.map((chunk) => (
                <RetrievedChunkItem key={chunk.id} chunk={chunk} />
              ))}
            </ol>
          )}
        </section>
      ) : null}
    </div>
  );
}
