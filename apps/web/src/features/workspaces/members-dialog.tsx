import type { Workspace } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorText } from '@/lib/api-client';
import { useAppStore } from '@/stores/app-store';
import { toast } from '@/stores/toasts';
import { changeMemberRole, membersKey, removeMember, useMembers } from './queries';
import { WorkspaceRoleSelect } from './role-select';

export function MembersDialog({
  open,
  workspace,
  onClose,
}: {
  open: boolean;
  workspace: Workspace;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const members = useMembers(workspace.id, open);
  const me = useAppStore((s) => s.user);
  const refresh = () => queryClient.invalidateQueries({ queryKey: membersKey(workspace.id) });

  async function run(action: () => Promise<unknown>, success: string) {
    try {
      await action();
      toast.success(success);
    } catch (error) {
      toast.error(t('workspaceSelection.members.error'), errorText(error, t('errors.unknown')));
    }
    await refresh();
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('workspaceSelection.members.title', { name: workspace.name })}</DialogTitle>
          <DialogDescription>{t('workspaceSelection.members.description')}</DialogDescription>
        </DialogHeader>
        {members.isPending ? (
          <p className="text-sm text-muted-foreground">{t('common.loading')}</p>
        ) : members.isError ? (
          <p className="text-sm text-destructive">{t('errors.loadError')}</p>
        ) : members.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('workspaceSelection.members.empty')}</p>
        ) : (
          <ul className="divide-y rounded-lg border">
            {members.data.map((member) => {
              // The server keeps a workspace admin's own admin access (409): say so rather than fail.
              const ownAdmin =
                member.id === me?.id && me.user_role_id !== 'admin' && member.workspace_role_id === 'admin';
              return (
                <li key={member.id} className="flex flex-wrap items-center gap-3 p-3">
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium">
                      {`${member.firstName} ${member.lastName}`.trim() || member.email}
                    </p>
                    <p className="truncate text-xs text-muted-foreground">{member.email}</p>
                    {ownAdmin && (
                      <p className="text-xs text-muted-foreground" data-testid="own-admin-note">
                        {t('members.ownAdmin')}
                      </p>
                    )}
                  </div>
                  <WorkspaceRoleSelect
                    label={t('workspaceSelection.members.role', { name: member.email })}
                    value={member.workspace_role_id}
                    disabled={ownAdmin}
                    onChange={(role) =>
                      void run(
                        () => changeMemberRole(workspace.id, member.id, role),
                        t('workspaceSelection.members.updateSuccess'),
                      )
                    }
                  />
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t('workspaceSelection.members.remove', { name: member.email })}
                    disabled={ownAdmin}
                    onClick={() =>
                      void run(
                        () => removeMember(workspace.id, member.id),
                        t('workspaceSelection.members.removeSuccess'),
                      )
                    }
                  >
                    <Trash2 />
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
