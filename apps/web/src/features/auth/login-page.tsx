import type { TokenAnswer } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { api } from '@/lib/api';
import { errorText } from '@/lib/api-client';
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
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!email || !password) return;
    setBusy(true);
    setError(null);
    try {
      const tokens = await api.post<TokenAnswer>('/token', { email, password }, { auth: false });
      const user = await startSession(queryClient, tokens);
      if (!localStorage.getItem('atelier-language')) await setLanguage(user.language_preference);
      await navigate({ to: search.redirect ?? '/' });
    } catch (err) {
      setError(errorText(err, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthShell title={t('auth.login.title')} description={t('auth.login.subtitle')}>
      <form onSubmit={submit} className="grid gap-4" noValidate>
        <Field
          label={t('common.email')}
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={submitted && !email ? t('common.required') : undefined}
          autoFocus
        />
        <Field
          label={t('common.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={submitted && !password ? t('common.required') : undefined}
        />
        {error ? (
          <p
            role="alert"
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
