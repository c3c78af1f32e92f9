import type { Workspace } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { addMember, membersKey, useMembers, useOrganizationUsers } from './queries';
import { WorkspaceRoleSelect } from './role-select';

/** Invite a user of the organization into the workspace with a chosen workspace role. */
export function ShareDialog({
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
  const users = useOrganizationUsers(open);
  const members = useMembers(workspace.id, open);
  const [userId, setUserId] = useState<string>();
  const [roleId, setRoleId] = useState<string>('viewer');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) {
      setUserId(undefined);
      setRoleId('viewer');
    }
  }, [open]);

  const memberIds = new Set((members.data ?? []).map((m) => m.id));
  const candidates = (users.data ?? []).filter((u) => !memberIds.has(u.id));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!userId || !roleId) return;
    setBusy(true);
    try {
      await addMember(workspace.id, userId, roleId);
      toast.success(t('workspaceSelection.share.success'));
      await queryClient.invalidateQueries({ queryKey: membersKey(workspace.id) });
      onClose();
    } catch (error) {
      toast.error(t('workspaceSelection.share.error'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')}>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{t('workspaceSelection.share.title', { name: workspace.name })}</DialogTitle>
            <DialogDescription>{t('workspaceSelection.share.description')}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-1.5">
            <Label htmlFor="share-user">{t('workspaceSelection.share.user')}</Label>
            <Select value={userId ?? ''} onValueChange={setUserId}>
              <SelectTrigger id="share-user">
                <SelectValue placeholder={t('workspaceSelection.share.selectUser')} />
              </SelectTrigger>
              <SelectContent>
                {candidates.map((u) => (
                  <SelectItem key={u.id} value={u.id}>
                    {`${u.firstName} ${u.lastName}`.trim()
                      ? `${u.firstName} ${u.lastName} · ${u.email}`
                      : u.email}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            {users.isSuccess && candidates.length === 0 ? (
              <p className="text-xs text-muted-foreground">{t('workspaceSelection.share.nobody')}</p>
            ) : null}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="share-role">{t('workspaceSelection.share.role')}</Label>
            <WorkspaceRoleSelect
              id="share-role"
              label={t('workspaceSelection.share.role')}
              value={roleId}
              onChange={setRoleId}
              wide
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!userId || busy}>
              {t('workspaceSelection.share.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
