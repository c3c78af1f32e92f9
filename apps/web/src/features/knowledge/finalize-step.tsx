import { useTranslation } from 'react-i18next';
import { fullTextLanguageName } from './format';
import { useWizardStore } from './wizard-store';

/** Step 3: everything chosen, read back before saving. */
export function FinalizeStep() {
  const { t, i18n } = useTranslation();
  const data = useWizardStore((s) => s.data);
  const models = useWizardStore((s) => s.models);
  const connectors = useWizardStore((s) => s.connectors);
  const modelName = (id: string | null, list: 'embeddings' | 'rerank' | 'ocr') =>
    (id && models?.[list].find((m) => m.id === id)?.name) || '—';
  const connector = connectors?.find((c) => c.id === data.connector_id);
  const rows: [string, string][] = [
    [
      'source',
      connector ? `${connector.name} · ${data.collection_name ?? ''}` : t('knowledge.connectors.builtinName'),
    ],
    ['name', data.name.trim()],
    ['description', data.description.trim() || '—'],
    ['embeddingsModel', modelName(data.embeddings_model_id, 'embeddings')],
    ['splitter', t(`knowledge.splitters.${data.splitter}`)],
    ['chunkSize', data.chunk_size],
    ['chunkOverlap', data.chunk_overlap],
    ['topK', data.top_k],
    ['threshold', data.score_threshold.trim() || '—'],
    ['rerankModel', modelName(data.rerank_model_id, 'rerank')],
    ['ocrModel', modelName(data.ocr_model_id, 'ocr')],
    ['hybrid', t(data.hybrid ? 'knowledge.yes' : 'knowledge.no')],
    ...(data.connector_id === null
      ? ([
          [
            'fullTextLanguage',
            fullTextLanguageName(
              data.full_text_language,
              i18n.language,
              t('knowledge.wizard.collection.anyLanguage'),
            ),
          ],
        ] as [string, string][])
      : []),
  ];
  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold tracking-tight">{t('knowledge.wizard.finalize.title')}</h2>
        <p className="text-sm text-muted-foreground">
          {t(data.id ? 'knowledge.wizard.finalize.descriptionEdit' : 'knowledge.wizard.finalize.description')}
        </p>
      </div>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2" data-testid="wizard-summary">
        {rows.map(([key, value]) => (
          <div key={key} className="grid gap-0.5 border-b pb-2">
            <dt className="text-xs text-muted-foreground">{t(`knowledge.wizard.summary.${key}`)}</dt>
            <dd className="break-words text-sm font-medium">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
