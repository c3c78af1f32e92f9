import type { Chatbot } from '@atelier/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiUrl } from '@/lib/api';
import { cn } from '@/lib/utils';
import { ApiKeysSection } from './api-keys-section';
import { CodeBlock } from './controls';
import { integrationGuide, SNIPPET_LANGUAGES, type SnippetLanguage } from './integration-snippets';
import { useInputFieldNames } from './queries';

const LANGUAGE_LABELS: Record<SnippetLanguage, string> = {
  curl: 'curl',
  javascript: 'JavaScript',
  python: 'Python',
};

/** How to call a chatbot from another system: its API keys, then the calls for its type. */
export function IntegrationGuide({ chatbot }: { chatbot: Chatbot }) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<SnippetLanguage>('curl');
  const flow = chatbot.type !== 'simple';
  const fields = useInputFieldNames(chatbot.id, flow && chatbot.is_published);
  const guide = integrationGuide(apiUrl, chatbot, fields.data ?? []);
  const type = chatbot.type;
  return (
    <div className="grid gap-6">
      <ApiKeysSection chatbotId={chatbot.id} />
      <section className="grid gap-3" aria-labelledby={`${chatbot.id}-calls`}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={`${chatbot.id}-calls`} className="font-semibold">
            {t('apiKeys.guide.callsTitle')}
          </h3>
          <div
            role="tablist"
            aria-label={t('apiKeys.guide.language')}
            className="flex rounded-lg border p-0.5"
          >
            {SNIPPET_LANGUAGES.map((l) => (
              <button
                key={l}
                type="button"
                role="tab"
                aria-selected={l === language}
                onClick={() => setLanguage(l)}
                className={cn(
                  'rounded-md px-2.5 py-1 text-xs font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  l === language
                    ? 'bg-primary text-primary-foreground'
                    : 'text-muted-foreground hover:text-foreground',
                )}
              >
                {LANGUAGE_LABELS[l]}
              </button>
            ))}
          </div>
        </div>
        <p className="text-sm text-muted-foreground">{t('apiKeys.guide.keyEnv')}</p>
        <div className="grid gap-2" role="tabpanel">
          <p className="text-sm text-muted-foreground">{t(`apiKeys.guide.openaiText.${type}`)}</p>
          <CodeBlock label={t('apiKeys.guide.openaiStep')} code={guide.openai[language]} />
        </div>
        <div className="grid gap-2">
          <p className="text-sm text-muted-foreground">{t(`apiKeys.guide.nativeText.${type}`)}</p>
          <CodeBlock label={t(`apiKeys.guide.nativeStep.${type}`)} code={guide.native[language]} />
        </div>
        <p className="text-sm text-muted-foreground">
          {t('apiKeys.guide.docs')}{' '}
          <a
            className="font-medium text-primary underline-offset-4 hover:underline"
            href={`${apiUrl}/docs`}
            target="_blank"
            rel="noreferrer"
          >
            {`${apiUrl}/docs`}
          </a>
        </p>
      </section>
    </div>
  );
}
