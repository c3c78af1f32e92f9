import type { TokenAnswer } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { api } from '@/lib/api';
import { ApiError, errorText } from '@/lib/api-client';
import { problemsByField } from '@/lib/error-text';
import { setLanguage } from '@/i18n';
import { AuthShell } from './auth-shell';
import { startSession } from './session';

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const search = useSearch({ from: '/login' });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  // What the server said about each field (a 422), shown under it.
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  // The "session ended" notice stays until the person tries to sign in.
  const [notice, setNotice] = useState(search.reason === 'expired');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setNotice(false);
    // A new attempt: the last one's failure is no longer the news.
    setError(null);
    setFieldErrors({});
    if (!email || !password) return;
    setBusy(true);
    try {
      const tokens = await api.post<TokenAnswer>('/token', { email, password }, { auth: false });
      const user = await startSession(queryClient, tokens);
      if (!localStorage.getItem('atelier-language')) await setLanguage(user.language_preference);
      if (search.redirect) await navigate({ href: search.redirect });
      else await navigate({ to: '/' });
    } catch (err) {
      const byField = err instanceof ApiError ? problemsByField(err.problems) : {};
      const inPlace = ['email', 'password'].filter((f) => byField[f]);
      if (inPlace.length > 0) setFieldErrors(byField);
      else setError(errorText(err, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthShell title={t('auth.login.title')} description={t('auth.login.subtitle')}>
      <form onSubmit={submit} className="grid gap-4" noValidate>
        {notice ? (
          <p
            role="status"
            data-testid="session-ended"
            className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-sm text-amber-900 dark:text-amber-200"
          >
            {t('session.expired')}
          </p>
        ) : null}
        <Field
          label={t('common.email')}
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={submitted && !email ? t('common.required') : fieldErrors.email}
          autoFocus
        />
        <Field
          label={t('common.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={submitted && !password ? t('common.required') : fieldErrors.password}
        />
        {error ? (
          <p
            role="alert"
            data-testid="login-error"
            className="rounded-md border border-destructive/40 bg-destructive/10 p-2 text-sm text-destructive"
          >
            {error}
          </p>
        ) : null}
        <Button type="submit" disabled={busy}>
          {t('auth.login.submit')}
        </Button>
        <Link to="/request-password-reset" className="text-center text-sm text-primary hover:underline">
          {t('auth.login.forgot')}
        </Link>
      </form>
    </AuthShell>
  );
}
