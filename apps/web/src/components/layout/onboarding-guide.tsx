import { FolderPlus, Mail } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { WorkspaceDialog } from '@/features/workspaces/workspace-dialog';
import { useAppStore } from '@/stores/app-store';

/** Shown in the body while no workspace is selected: builders create one, others ask an admin. */
export function OnboardingGuide() {
  const { t } = useTranslation();
  const user = useAppStore((s) => s.user);
  const [open, setOpen] = useState(false);
  const canCreate = user?.user_role_id === 'admin' || user?.user_role_id === 'creator';
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center py-16">
      <Card className="w-full text-center" data-testid="onboarding-guide">
        <CardHeader className="items-center">
          <div className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            {canCreate ? <FolderPlus /> : <Mail />}
          </div>
          <CardTitle>{t('onboardingGuide.title', { name: user?.firstName || user?.email })}</CardTitle>
          <CardDescription>
            {t(canCreate ? 'onboardingGuide.builderDescription' : 'onboardingGuide.userDescription')}
          </CardDescription>
        </CardHeader>
        {canCreate ? (
          <CardContent>
            <Button onClick={() => setOpen(true)}>{t('onboardingGuide.createWorkspace')}</Button>
          </CardContent>
        ) : null}
      </Card>
      <WorkspaceDialog open={open} workspace={null} onClose={() => setOpen(false)} />
    </div>
  );
}
