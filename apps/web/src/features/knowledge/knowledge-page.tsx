import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { buttonVariants } from '@/components/ui/button';
import { useSelectedWorkspace } from '@/stores/app-store';
import { CollectionsSection } from './collections-section';
import { ConnectorsSection } from './connectors-section';
import { TabsBar, TabsContent, TabsRoot } from '@/components/ui/tabs';
import { ToolsSection } from './tools-section';

const TABS = ['collections', 'connectors', 'tools'] as const;

/** /knowledges: collections, the connectors they live in, and tools. */
export default function KnowledgePage() {
  const workspace = useSelectedWorkspace();
  return workspace ? <KnowledgeView key={workspace.id} workspaceId={workspace.id} /> : null;
}

function KnowledgeView({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-6" data-testid="knowledge-page">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t('knowledge.title')}</h1>
          <p className="text-sm text-muted-foreground">{t('knowledge.description')}</p>
        </div>
        <Link to="/knowledges/collections/create" className={buttonVariants()}>
          <Plus /> {t('knowledge.collections.create')}
        </Link>
      </div>
      <TabsRoot defaultValue="collections" className="grid gap-4">
        <TabsBar
          label={t('knowledge.title')}
          tabs={TABS.map((tab) => ({ value: tab, label: t(`knowledge.tabs.${tab}`) }))}
        />
        <TabsContent value="collections">
          <CollectionsSection workspaceId={workspaceId} />
        </TabsContent>
        <TabsContent value="connectors">
          <ConnectorsSection workspaceId={workspaceId} />
        </TabsContent>
        <TabsContent value="tools">
          <ToolsSection workspaceId={workspaceId} />
        </TabsContent>
      </TabsRoot>
    </div>
  );
}
