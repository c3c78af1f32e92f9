import type { AppRoleId, Language, User } from '@atelier/schemas';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { invitationText } from './invitation';
import { createUser, updateUser, useUserRoles, type UserForm } from './queries';

const empty: UserForm = {
  email: '',
  firstName: '',
  lastName: '',
  jobTitle: '',
  user_role_id: 'user',
  language_preference: 'en',
};

/** Create (which sends the invitation) or edit a user. */
export function UserFormDialog({
  open,
  user,
  onClose,
  onSaved,
}: {
  open: boolean;
  user: User | null;
  onClose(): void;
  onSaved(invitationUrl: string | null): void;
}) {
  const { t } = useTranslation();
  const roles = useUserRoles();
  const [form, setForm] = useState<UserForm>(empty);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setTried(false);
    setForm(
      user
        ? {
            email: user.email,
            firstName: user.firstName,
            lastName: user.lastName,
            jobTitle: user.jobTitle,
            user_role_id: user.user_role_id,
            language_preference: user.language_preference,
          }
        : empty,
    );
  }, [open, user]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!form.email.trim()) return;
    setBusy(true);
    try {
      if (user) {
        await updateUser(user.id, form);
        toast.success(t('admin.users.updated'));
        onSaved(null);
      } else {
        const created = await createUser(form);
        toast.success(t('admin.users.created'), invitationText(t, created, form.email));
        onSaved(created.invitation_url);
      }
      onClose();
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  const set = (patch: Partial<UserForm>) => setForm({ ...form, ...patch });
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')}>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>
              {t(user ? 'admin.users.form.editTitle' : 'admin.users.form.createTitle')}
            </DialogTitle>
            <DialogDescription>
              {t(user ? 'admin.users.form.editDescription' : 'admin.users.form.createDescription')}
            </DialogDescription>
          </DialogHeader>
          <Field
            label={t('common.email')}
            type="email"
            value={form.email}
            onChange={(e) => set({ email: e.target.value })}
            error={tried && !form.email.trim() ? t('common.required') : undefined}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label={t('common.firstName')}
              value={form.firstName}
              onChange={(e) => set({ firstName: e.target.value })}
            />
            <Field
              label={t('common.lastName')}
              value={form.lastName}
              onChange={(e) => set({ lastName: e.target.value })}
            />
          </div>
          <Field
            label={t('common.jobTitle')}
            value={form.jobTitle}
            onChange={(e) => set({ jobTitle: e.target.value })}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <Label htmlFor="user-role">{t('common.role')}</Label>
              <Select value={form.user_role_id} onValueChange={(v) => set({ user_role_id: v as AppRoleId })}>
                <SelectTrigger id="user-role">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {(roles.data ?? []).map((role) => (
                    <SelectItem key={role.id} value={role.id}>
                      {t(`roles.app.${role.id}`, { defaultValue: role.name })}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="user-language">{t('common.language')}</Label>
              <Select
                value={form.language_preference}
                onValueChange={(v) => set({ language_preference: v as Language })}
              >
                <SelectTrigger id="user-language">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="en">English</SelectItem>
                  <SelectItem value="fr">Français</SelectItem>
                </SelectContent>
              </Select>
            </div>
          </div>
          <FormDialogFooter action={user ? 'update' : 'create'} disabled={busy} onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
