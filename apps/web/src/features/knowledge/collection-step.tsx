import type { ModelWithProvider } from '@atelier/schemas';
import { collectionSplitters, type FullTextLanguage } from '@atelier/schemas/constants';
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { TextAreaField, Switch } from '@/features/studio/controls';
import { ListSkeleton } from './states';
import { ChoiceField } from './choice-field';
import { fullTextLanguageItems } from './format';
import { validateCollection, type WizardData } from './wizard-form';
import { useWizardStore } from './wizard-store';

const NONE = '__none__';
const modelItem = (m: ModelWithProvider) => ({ value: m.id, label: `${m.name} · ${m.provider.name}` });

/** Step 2: the collection's name, embeddings model and how documents are cut and found. */
export function CollectionStep({ modelLocked }: { modelLocked: boolean }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const data = useWizardStore((s) => s.data);
  const models = useWizardStore((s) => s.models);
  const { setData, setValid } = useWizardStore.getState();
  const [touched, setTouched] = useState<Set<keyof WizardData>>(new Set());
  const errors = validateCollection(data);
  // Named once per language of the page, not at each keystroke.
  const anyLanguage = t('knowledge.wizard.collection.anyLanguage');
  const languages = useMemo(
    () => fullTextLanguageItems(i18n.language, anyLanguage),
    [i18n.language, anyLanguage],
  );

  useEffect(() => {
    setValid(Object.keys(validateCollection(data)).length === 0);
  }, [data, setValid]);

  const touch = (key: keyof WizardData) => setTouched((s) => new Set(s).add(key));
  // Required fields complain once left; a wrong value complains at once.
  const errorOf = (key: keyof WizardData) => {
    const e = errors[key];
    if (!e) return undefined;
    return e === 'common.required' && !touched.has(key) ? undefined : t(e);
  };
  type TextField = 'name' | 'chunk_size' | 'chunk_overlap' | 'top_k' | 'score_threshold';
  const text = (field: TextField) => ({
    value: data[field],
    onChange: (e: { target: { value: string } }) => setData({ [field]: e.target.value }),
    onBlur: () => touch(field),
    error: errorOf(field),
  });

  /** A picker of an optional model: its first choice is none (null). */
  const optionalModel = (
    field: 'rerank_model_id' | 'ocr_model_id',
    list: readonly ModelWithProvider[],
    noneLabel: string,
  ) => ({
    value: data[field] ?? NONE,
    items: [{ value: NONE, label: noneLabel }, ...list.map(modelItem)],
    onChange: (v: string) => setData({ [field]: v === NONE ? null : v }),
  });

  if (models === null) return <ListSkeleton count={2} />;
  return (
    <div className="grid gap-5">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold tracking-tight">{t('knowledge.wizard.collection.title')}</h2>
        <p className="text-sm text-muted-foreground">{t('knowledge.wizard.collection.description')}</p>
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Field label={t('knowledge.form.name')} maxLength={120} {...text('name')} />
        <ChoiceField
          id={`${id}-model`}
          label={t('knowledge.wizard.collection.embeddingsModel')}
          value={data.embeddings_model_id}
          placeholder={t('knowledge.wizard.collection.chooseModel')}
          items={models.embeddings.map(modelItem)}
          onChange={(v) => {
            touch('embeddings_model_id');
            setData({ embeddings_model_id: v });
          }}
          error={errorOf('embeddings_model_id')}
          disabled={modelLocked}
          hint={
            models.embeddings.length === 0 ? (
              <>
                {t('knowledge.wizard.collection.noEmbeddings')}{' '}
                <Link to="/providers" className="font-medium text-primary hover:underline">
                  {t('knowledge.wizard.collection.goProviders')}
                </Link>
              </>
            ) : modelLocked ? (
              t('knowledge.wizard.collection.modelLocked')
            ) : (
              t('knowledge.wizard.collection.embeddingsHint')
            )
          }
        />
      </div>
      <TextAreaField
        label={t('knowledge.form.description')}
        value={data.description}
        rows={2}
        maxLength={2000}
        onChange={(e) => setData({ description: e.target.value })}
        hint={t('knowledge.form.optional')}
      />
      <h3 className="text-sm font-semibold">{t('knowledge.wizard.collection.chunking')}</h3>
      <div className="grid items-start gap-4 sm:grid-cols-3">
        <ChoiceField
          id={`${id}-splitter`}
          label={t('knowledge.wizard.collection.splitter')}
          value={data.splitter}
          items={collectionSplitters.map((s) => ({ value: s, label: t(`knowledge.splitters.${s}`) }))}
          onChange={(v) => setData({ splitter: v as WizardData['splitter'] })}
        />
        <Field
          label={t('knowledge.wizard.collection.chunkSize')}
          inputMode="numeric"
          {...text('chunk_size')}
        />
        <Field
          label={t('knowledge.wizard.collection.chunkOverlap')}
          inputMode="numeric"
          {...text('chunk_overlap')}
        />
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <ChoiceField
          id={`${id}-ocr`}
          label={t('knowledge.wizard.collection.ocrModel')}
          {...optionalModel('ocr_model_id', models.ocr, t('knowledge.wizard.collection.noOcr'))}
          hint={t('knowledge.wizard.collection.ocrHint')}
        />
      </div>
      <h3 className="text-sm font-semibold">{t('knowledge.wizard.collection.retrieval')}</h3>
      <div className="grid items-start gap-4 sm:grid-cols-3">
        <Field label={t('knowledge.wizard.collection.topK')} inputMode="numeric" {...text('top_k')} />
        <Field
          label={t('knowledge.wizard.collection.threshold')}
          inputMode="decimal"
          placeholder="0.5"
          hint={t('knowledge.wizard.collection.thresholdHint')}
          {...text('score_threshold')}
        />
        <ChoiceField
          id={`${id}-rerank`}
          label={t('knowledge.wizard.collection.rerankModel')}
          {...optionalModel('rerank_model_id', models.rerank, t('knowledge.wizard.collection.noRerank'))}
        />
      </div>
      <div className="flex items-start gap-3">
        <Switch
          id={`${id}-hybrid`}
          checked={data.hybrid}
          onCheckedChange={(hybrid) => setData({ hybrid })}
          aria-describedby={`${id}-hybrid-hint`}
          className="mt-0.5"
        />
        <div className="grid gap-1">
          <Label htmlFor={`${id}-hybrid`}>{t('knowledge.wizard.collection.hybrid')}</Label>
          <p id={`${id}-hybrid-hint`} className="text-sm text-muted-foreground">
            {t('knowledge.wizard.collection.hybridHint')}
          </p>
        </div>
      </div>
      {data.connector_id === null ? (
        // Only the built-in store reads text in a language; fixed once documents are stored.
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <ChoiceField
            id={`${id}-language`}
            label={t('knowledge.wizard.collection.fullTextLanguage')}
            value={data.full_text_language}
            items={languages}
            onChange={(v) => setData({ full_text_language: v as FullTextLanguage })}
            disabled={modelLocked}
            hint={t(
              modelLocked
                ? 'knowledge.wizard.collection.fullTextLanguageLocked'
                : 'knowledge.wizard.collection.fullTextLanguageHint',
            )}
          />
        </div>
      ) : null}
    </div>
  );
}
