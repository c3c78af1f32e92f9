import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from './copy-button';
import type { highlight as highlightCode } from './highlight';
import './code-theme.css';

type Highlighter = typeof highlightCode;
let loading: Promise<Highlighter> | null = null;
/** highlight.js comes with the first code block (its own chunk), once. */
const loadHighlighter = () => (loading ??= import('./highlight').then((m) => m.highlight));

/** A fenced code block of an answer: its language, a copy button, and syntax colours once loaded. */
export function CodeBlock({ code, lang }: { code: string; lang: string }) {
  const { t } = useTranslation();
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    if (!lang) return;
    void loadHighlighter().then((highlight) => live && setHtml(highlight(code, lang)));
    return () => {
      live = false;
    };
  }, [code, lang]);
  return (
    <div className="group/code overflow-hidden rounded-md border bg-muted/60" data-testid="code-block">
      <div className="flex items-center justify-between gap-2 border-b px-3 py-1 text-xs text-muted-foreground">
        <span className="font-mono">{lang || t('chatExtras.code')}</span>
        <CopyButton text={code} label={t('chatExtras.copyCode')} className="-mr-2" />
      </div>
      <pre className="overflow-x-auto p-3 text-xs leading-relaxed">
        {html !== null ? (
          // highlight.js escapes the code and adds only its own spans (see highlight.ts).
          <code className="hljs font-mono" data-lang={lang} dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <code className="font-mono" data-lang={lang || undefined}>
            {code}
          </code>
        )}
      </pre>
    </div>
  );
}
