import type { Language } from '@atelier/schemas';
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
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { fetchMe, meQueryKey } from '@/features/auth/session';
import { setLanguage } from '@/i18n';
import { api } from '@/lib/api';
import { errorText } from '@/lib/api-client';
import { useAppStore } from '@/stores/app-store';
import { toast } from '@/stores/toasts';

/** My profile: names, job title and language (English or French), which also switches the interface. */
export function ProfileDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation();
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
        language_preference: user.language_preference,
      });
      setTried(false);
    }
  }, [open, user]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!form.firstName.trim() || !form.lastName.trim()) return;
    setBusy(true);
    try {
      await api.patch('/users/profile/me', form);
      await setLanguage(form.language_preference);
      const me = await queryClient.fetchQuery({ queryKey: meQueryKey, queryFn: fetchMe, staleTime: 0 });
      useAppStore.getState().setUser(me);
      toast.success(t('profile.saved'));
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
              error={tried && !form.firstName.trim() ? t('common.required') : undefined}
            />
            <Field
              label={t('common.lastName')}
              value={form.lastName}
              onChange={(e) => setForm({ ...form, lastName: e.target.value })}
              error={tried && !form.lastName.trim() ? t('common.required') : undefined}
            />
          </div>
          <Field
            label={t('common.jobTitle')}
            value={form.jobTitle}
            onChange={(e) => setForm({ ...form, jobTitle: e.target.value })}
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
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={busy}>
              {t('common.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
