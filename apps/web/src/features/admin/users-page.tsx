import type { User } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Copy, Mail, Plus } from 'lucide-react';
import { EditDeleteButtons } from '@/components/ui/edit-delete-buttons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorText } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useAppStore } from '@/stores/app-store';
import { toast } from '@/stores/toasts';
import { invitationText } from './invitation';
import { deleteUser, resendInvitation, usersKey, useUsers } from './queries';
import { UserFormDialog } from './user-form-dialog';

export default function UsersPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const me = useAppStore((s) => s.user);
  const users = useUsers();
  const [editing, setEditing] = useState<{ user: User | null } | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const [invitation, setInvitation] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: usersKey });

  async function remove(user: User) {
    try {
      await deleteUser(user.id);
      toast.success(t('admin.users.deleted'));
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    }
    setDeleting(null);
    await refresh();
  }

  async function reinvite(user: User) {
    try {
      const answer = await resendInvitation(user.id);
      setInvitation(answer.invitation_url);
      toast.success(
        invitationText(t, answer, user.email) ?? t('admin.users.invitationSent', { email: user.email }),
      );
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    }
  }

  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t('admin.users.title')}</h1>
          <p className="text-sm text-muted-foreground">{t('admin.users.description')}</p>
        </div>
        <Button onClick={() => setEditing({ user: null })}>
          <Plus /> {t('admin.users.create')}
        </Button>
      </div>
      {invitation ? (
        <div
          className="flex flex-wrap items-center gap-2 rounded-lg border bg-muted/40 p-3 text-sm"
          data-testid="invitation-link"
        >
          <Mail className="size-4 text-primary" />
          <span className="font-medium" title={t('invitation.linkHint')}>
            {t('admin.users.invitationLink')}
          </span>
          <code className="min-w-0 flex-1 truncate text-xs">{invitation}</code>
          <Button
            size="sm"
            variant="outline"
            onClick={() =>
              void navigator.clipboard
                ?.writeText(invitation)
                .then(() => toast.success(t('admin.users.copied')))
            }
          >
            <Copy /> {t('admin.users.copy')}
          </Button>
        </div>
      ) : null}
      <div className="rounded-xl border bg-card">
        {users.isPending ? (
          <p className="p-6 text-sm text-muted-foreground">{t('common.loading')}</p>
        ) : users.isError ? (
          <p role="alert" className="p-6 text-sm text-destructive">
            {t('errors.loadError')}
          </p>
        ) : (
          <Table stack>
            <TableHeader>
              <TableRow>
                <TableHead>{t('admin.users.name')}</TableHead>
                <TableHead>{t('common.email')}</TableHead>
                <TableHead>{t('common.role')}</TableHead>
                <TableHead>{t('admin.users.status')}</TableHead>
                <TableHead>{t('admin.users.created_at')}</TableHead>
                <TableHead className="text-right">{t('common.actions')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {users.data.map((user) => (
                <TableRow key={user.id}>
                  <TableCell className="font-medium" label={t('admin.users.name')}>
                    {`${user.firstName} ${user.lastName}`.trim() || '—'}
                  </TableCell>
                  <TableCell label={t('common.email')}>{user.email}</TableCell>
                  <TableCell label={t('common.role')}>{t(`roles.app.${user.user_role_id}`)}</TableCell>
                  <TableCell label={t('admin.users.status')}>
                    <Badge variant={user.status === 'active' ? 'secondary' : 'outline'}>
                      {t(`admin.users.statuses.${user.status}`)}
                    </Badge>
                  </TableCell>
                  <TableCell
                    className="whitespace-nowrap text-muted-foreground"
                    label={t('admin.users.created_at')}
                  >
                    {formatDate(user.created_at, i18n.language)}
                  </TableCell>
                  <TableCell className="text-right whitespace-nowrap" actions>
                    {user.status === 'invited' ? (
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={t('admin.users.resend', { email: user.email })}
                        onClick={() => void reinvite(user)}
                      >
                        <Mail />
                      </Button>
                    ) : null}
                    <EditDeleteButtons
                      editLabel={t('admin.users.edit', { email: user.email })}
                      deleteLabel={t('admin.users.delete', { email: user.email })}
                      onEdit={() => setEditing({ user })}
                      onDelete={() => setDeleting(user)}
                      deleteDisabled={user.id === me?.id}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </div>

      <UserFormDialog
        open={editing !== null}
        user={editing?.user ?? null}
        onClose={() => setEditing(null)}
        onSaved={(url) => {
          if (url) setInvitation(url);
          void refresh();
        }}
      />
      <AlertDialog open={deleting !== null} onOpenChange={(o) => !o && setDeleting(null)}>
        <AlertDialogContent>
          <AlertDialogTitle>{t('admin.users.deleteConfirm.title')}</AlertDialogTitle>
          <AlertDialogDescription>
            {t('admin.users.deleteConfirm.content', { email: deleting?.email })}
          </AlertDialogDescription>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogCancel>{t('common.cancel')}</AlertDialogCancel>
            <AlertDialogAction onClick={() => deleting && void remove(deleting)}>
              {t('common.delete')}
            </AlertDialogAction>
          </div>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
