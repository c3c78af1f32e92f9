import { Link, useParams } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { api } from '@/lib/api';
import { errorText } from '@/lib/api-client';
import { AuthShell } from './auth-shell';
import { PasswordFields, passwordOk } from './password-fields';

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const { token } = useParams({ from: '/reset-password/$token' });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!passwordOk(password) || password !== confirm) return;
    setBusy(true);
    setError(null);
    try {
      await api.post('/auth/set-password', { token, password }, { auth: false });
      setDone(true);
    } catch (err) {
      setError(errorText(err, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthShell title={t('auth.resetPassword.title')} description={t('auth.resetPassword.subtitle')}>
      {done ? (
        <div className="grid gap-4">
          <p role="status" className="text-sm">
            {t('auth.resetPassword.success')}
          </p>
          <Button asChild>
            <Link to="/login">{t('auth.backToLogin')}</Link>
          </Button>
        </div>
      ) : (
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <PasswordFields
            password={password}
            confirm={confirm}
            onPassword={setPassword}
            onConfirm={setConfirm}
            showErrors={submitted}
          />
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <Button type="submit" disabled={busy}>
            {t('auth.resetPassword.submit')}
          </Button>
        </form>
      )}
    </AuthShell>
  );
}
