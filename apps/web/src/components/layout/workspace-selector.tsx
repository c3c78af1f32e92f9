import { useNavigate } from '@tanstack/react-router';
import { Check, ChevronsUpDown, Pencil, Plus, Settings, Share2, Trash2, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { DeleteWorkspaceDialog } from '@/features/workspaces/delete-workspace-dialog';
import { MembersDialog } from '@/features/workspaces/members-dialog';
import { loadWorkspaces } from '@/features/workspaces/queries';
import { ShareDialog } from '@/features/workspaces/share-dialog';
import { WorkspaceDialog } from '@/features/workspaces/workspace-dialog';
import { workspacePermissions } from '@/routes/access';
import { toast } from '@/stores/toasts';
import { useAppStore, useSelectedWorkspace } from '@/stores/app-store';

type Modal =
  null | { kind: 'create' } | { kind: 'edit' } | { kind: 'members' } | { kind: 'share' } | { kind: 'delete' };

export function WorkspaceSelector() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAppStore((s) => s.user);
  const workspaces = useAppStore((s) => s.workspaces);
  const selectWorkspace = useAppStore((s) => s.selectWorkspace);
  const selected = useSelectedWorkspace();
  const [modal, setModal] = useState<Modal>(null);

  useEffect(() => {
    loadWorkspaces().catch(() => toast.error(t('workspaceSelection.loadError')));
  }, [t]);

  if (!user) return null;
  const can = workspacePermissions(user.user_role_id, selected?.workspace_role_id ?? null);
  const close = () => setModal(null);

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="outline"
            className="max-w-[14rem] justify-between"
            data-testid="workspace-selector"
          >
            <span className="truncate">{selected?.name ?? t('workspaceSelection.selectPrompt')}</span>
            <ChevronsUpDown className="opacity-60" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-64">
          <DropdownMenuLabel>{t('workspaceSelection.label')}</DropdownMenuLabel>
          {workspaces.length === 0 ? (
            <DropdownMenuItem disabled>{t('workspaceSelection.none')}</DropdownMenuItem>
          ) : (
            workspaces.map((w) => (
              <DropdownMenuItem
                key={w.id}
                onSelect={() => {
                  selectWorkspace(w.id);
                  void navigate({ to: '/' });
                }}
              >
                <Check className={w.id === selected?.id ? 'opacity-100' : 'opacity-0'} />
                <span className="truncate">{w.name}</span>
              </DropdownMenuItem>
            ))
          )}
          {can.create || (selected && can.settings) ? <DropdownMenuSeparator /> : null}
          {can.create ? (
            <DropdownMenuItem onSelect={() => setModal({ kind: 'create' })}>
              <Plus /> {t('workspaceSelection.createNew')}
            </DropdownMenuItem>
          ) : null}
          {selected && can.settings ? (
            <DropdownMenuSub>
              <DropdownMenuSubTrigger>
                <Settings /> {t('workspaceSelection.settings')}
              </DropdownMenuSubTrigger>
              <DropdownMenuSubContent>
                <DropdownMenuItem onSelect={() => setModal({ kind: 'edit' })}>
                  <Pencil /> {t('workspaceSelection.menu.edit')}
                </DropdownMenuItem>
                {can.membersAndShare ? (
                  <>
                    <DropdownMenuItem onSelect={() => setModal({ kind: 'members' })}>
                      <Users /> {t('workspaceSelection.menu.members')}
                    </DropdownMenuItem>
                    <DropdownMenuItem onSelect={() => setModal({ kind: 'share' })}>
                      <Share2 /> {t('workspaceSelection.menu.share')}
                    </DropdownMenuItem>
                  </>
                ) : null}
                <DropdownMenuItem className="text-destructive" onSelect={() => setModal({ kind: 'delete' })}>
                  <Trash2 /> {t('workspaceSelection.menu.delete')}
                </DropdownMenuItem>
              </DropdownMenuSubContent>
            </DropdownMenuSub>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>

      <WorkspaceDialog
        open={modal?.kind === 'create' || modal?.kind === 'edit'}
        workspace={modal?.kind === 'edit' ? selected : null}
        onClose={close}
      />
      {selected ? (
        <>
          <MembersDialog open={modal?.kind === 'members'} workspace={selected} onClose={close} />
          <ShareDialog open={modal?.kind === 'share'} workspace={selected} onClose={close} />
          <DeleteWorkspaceDialog open={modal?.kind === 'delete'} workspace={selected} onClose={close} />
        </>
      ) : null}
    </>
  );
}
