import type { Language } from '@atelier/schemas';
import { PROFILE_LIMITS, profileProblems } from '@atelier/schemas/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { fetchMe, meQueryKey } from '@/features/auth/session';
import { LANGUAGES, setLanguage } from '@/i18n';
import { api } from '@/lib/api';
import { errorText } from '@/lib/api-client';
import { useAppStore } from '@/stores/app-store';
import { toast } from '@/stores/toasts';

/** My profile: names, job title and language (English or French), which also switches the interface. */
export function ProfileDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const user = useAppStore((s) => s.user);
  const [form, setForm] = useState({
    firstName: '',
    lastName: '',
    jobTitle: '',
    language_preference: 'en' as Language,
  });
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open && user) {
      setForm({
        firstName: user.firstName,
        lastName: user.lastName,
        jobTitle: user.jobTitle,
        // The language on screen: saving must not switch the interface to a preference it does not show.
        language_preference: (LANGUAGES as readonly string[]).includes(i18n.resolvedLanguage ?? '')
          ? (i18n.resolvedLanguage as Language)
          : user.language_preference,
      });
      setTried(false);
    }
  }, [open, user, i18n.resolvedLanguage]);

  // The server's own rules (packages/schemas): names and job title optional, within their lengths.
  const errors = profileProblems(form);
  const shown = (field: keyof typeof errors) =>
    tried && errors[field] ? t('profileRules.tooLong', { max: errors[field] }) : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    try {
      await api.patch('/users/profile/me', form);
      await setLanguage(form.language_preference);
      const me = await queryClient.fetchQuery({ queryKey: meQueryKey, queryFn: fetchMe, staleTime: 0 });
      useAppStore.getState().setUser(me);
      // In the language just chosen (the `t` of this render still speaks the previous one).
      toast.success(i18n.t('profile.saved'));
      onOpenChange(false);
    } catch (error) {
      toast.error(t('profile.error'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t('common.close')}>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('profile.title')}</DialogTitle>
            <DialogDescription>{t('profile.description', { email: user?.email })}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label={t('common.firstName')}
              value={form.firstName}
              onChange={(e) => setForm({ ...form, firstName: e.target.value })}
              maxLength={PROFILE_LIMITS.firstName}
              error={shown('firstName')}
            />
            <Field
              label={t('common.lastName')}
              value={form.lastName}
              onChange={(e) => setForm({ ...form, lastName: e.target.value })}
              maxLength={PROFILE_LIMITS.lastName}
              error={shown('lastName')}
            />
          </div>
          <Field
            label={t('common.jobTitle')}
            value={form.jobTitle}
            onChange={(e) => setForm({ ...form, jobTitle: e.target.value })}
            maxLength={PROFILE_LIMITS.jobTitle}
            error={shown('jobTitle')}
          />
          <div className="grid gap-1.5">
            <Label htmlFor="profile-language">{t('common.language')}</Label>
            <Select
              value={form.language_preference}
              onValueChange={(v) => setForm({ ...form, language_preference: v as Language })}
            >
              <SelectTrigger id="profile-language">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="en">English</SelectItem>
                <SelectItem value="fr">Français</SelectItem>
              </SelectContent>
            </Select>
          </div>
          <FormDialogFooter action="save" disabled={busy} onCancel={() => onOpenChange(false)} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
