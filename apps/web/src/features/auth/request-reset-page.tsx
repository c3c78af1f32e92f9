import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { api } from '@/lib/api';
import { ApiError, errorText } from '@/lib/api-client';
import { AuthShell } from './auth-shell';

export default function RequestResetPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!email) return;
    setBusy(true);
    setError(null);
    try {
      await api.post('/auth/request-password-reset', { email }, { auth: false });
      setSent(true);
    } catch (err) {
      // Anything other than 200 fails: the server's message, or the catalogue's default.
      setError(
        err instanceof ApiError && err.status !== 0
          ? errorText(err, t('auth.requestReset.failed'))
          : t('auth.requestReset.failed'),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthShell title={t('auth.requestReset.title')} description={t('auth.requestReset.subtitle')}>
      {sent ? (
        <div className="grid gap-4">
          <p role="status" className="text-sm">
            {t('auth.requestReset.sent')}
          </p>
          <Link to="/login" className="text-sm text-primary hover:underline">
            {t('auth.backToLogin')}
          </Link>
        </div>
      ) : (
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <Field
            label={t('common.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={submitted && !email ? t('common.required') : undefined}
            autoFocus
          />
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <Button type="submit" disabled={busy}>
            {t('auth.requestReset.submit')}
          </Button>
          <Link to="/login" className="text-center text-sm text-primary hover:underline">
            {t('auth.backToLogin')}
          </Link>
        </form>
      )}
    </AuthShell>
  );
}
