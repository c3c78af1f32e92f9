import { useRouterState } from '@tanstack/react-router';
import { Hammer } from 'lucide-react';
import { useTranslation } from 'react-i18next';

// Which page a path belongs to, for the title of pages that other capabilities fill in.
const PAGES: [RegExp, string][] = [
  [/^\/providers/, 'providers'],
  [/^\/knowledges\/collections\/create/, 'createCollection'],
  [/^\/knowledges\/collections\/edit/, 'editCollection'],
  [/^\/knowledges/, 'knowledges'],
  [/^\/studio\/simple/, 'simpleEditor'],
  [/^\/studio\/chatflow/, 'chatflowEditor'],
  [/^\/studio\/workflow/, 'workflowEditor'],
  [/^\/studio/, 'studio'],
  [/^\/analytics/, 'analytics'],
];

/** A page whose capability is not built yet, inside the real layout. */
export default function PlaceholderPage() {
  const { t } = useTranslation();
  const path = useRouterState({ select: (s) => s.location.pathname });
  const page = PAGES.find(([pattern]) => pattern.test(path))?.[1] ?? 'home';
  return (
    <div className="grid gap-2">
      <h1 className="text-2xl font-semibold tracking-tight">{t(`pages.${page}`)}</h1>
      <div
        className="mt-4 flex flex-col items-center gap-3 rounded-xl border border-dashed p-12 text-center"
        data-testid="placeholder"
      >
        <Hammer className="size-6 text-muted-foreground" />
        <p className="max-w-md text-sm text-muted-foreground">{t('pages.comingSoon')}</p>
      </div>
    </div>
  );
}
