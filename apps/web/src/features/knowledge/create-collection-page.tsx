import { Link, useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelectedWorkspace } from '@/stores/app-store';
import { CollectionWizard } from './collection-wizard';
import { collectionsKey } from './queries';
import { useWizardStore } from './wizard-store';

/** /knowledges/collections/create: the wizard from a clean start; then on to the collection's documents. */
export default function CreateCollectionPage() {
  const { t } = useTranslation();
  const workspace = useSelectedWorkspace();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reset = useWizardStore((s) => s.reset);

  useEffect(() => {
    reset();
    return reset;
  }, [reset, workspace?.id]);

  if (!workspace) return null;
  return (
    <div className="mx-auto grid w-full max-w-4xl gap-6">
      <div className="grid gap-1">
        <Link
          to="/knowledges"
          className="flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft className="size-4" /> {t('knowledge.title')}
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">{t('pages.createCollection')}</h1>
        <p className="text-sm text-muted-foreground">{t('knowledge.wizard.intro')}</p>
      </div>
      <CollectionWizard
        workspaceId={workspace.id}
        editing={false}
        onSaved={(id) => {
          void queryClient.invalidateQueries({ queryKey: collectionsKey(workspace.id) });
          void navigate({ to: '/knowledges/collections/edit/$id', params: { id } });
        }}
      />
    </div>
  );
}
