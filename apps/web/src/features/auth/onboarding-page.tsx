import type { TokenAnswer } from '@atelier/schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { LinkIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { api } from '@/lib/api';
import { ApiError, errorText } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { AuthShell } from './auth-shell';
import { PasswordFields, passwordOk } from './password-fields';
import { startSession } from './session';

interface Invitation {
  email: string;
  firstName: string;
  lastName: string;
  jobTitle: string;
}

const STEPS = ['password', 'personal', 'terms'] as const;
const INVALID_REASONS: Record<string, string> = {
  onboarding_token_expired: 'expired',
  onboarding_token_used: 'used',
  onboarding_token_invalid: 'typo',
};

function InvalidLink({ reason }: { reason: string | undefined }) {
  const { t } = useTranslation();
  return (
    <AuthShell title={t('auth.onboarding.invalid.title')}>
      <div className="grid gap-3 text-sm" data-testid="onboarding-invalid">
        <div className="flex size-10 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <LinkIcon className="size-5" />
        </div>
        <p className="font-medium">{t(`auth.onboarding.invalid.${reason ?? 'missing'}`)}</p>
        <p className="text-muted-foreground">{t('auth.onboarding.invalid.message')}</p>
      </div>
    </AuthShell>
  );
}

export default function OnboardingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { token } = useParams({ from: '/onboarding/$token' });
  const invitation = useQuery({
    queryKey: ['onboarding', token],
    queryFn: () => api.get<Invitation>(`/users/onboarding/${encodeURIComponent(token)}`, { auth: false }),
    retry: false,
  });
  const [step, setStep] = useState(0);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [profile, setProfile] = useState<{ firstName: string; lastName: string; jobTitle: string } | null>(
    null,
  );
  const [accepted, setAccepted] = useState(false);
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!token) return <InvalidLink reason={undefined} />;
  if (invitation.isPending)
    return <AuthShell title={t('auth.onboarding.title')}>{t('common.loading')}</AuthShell>;
  if (invitation.isError) {
    const err = invitation.error;
    if (err instanceof ApiError && INVALID_REASONS[err.code])
      return <InvalidLink reason={INVALID_REASONS[err.code]} />;
    // A token the API cannot even read (not the shape of a token): invalid or missing.
    if (err instanceof ApiError && err.status === 422) return <InvalidLink reason={undefined} />;
    return (
      <AuthShell title={t('auth.onboarding.title')}>
        <p role="alert" className="text-sm text-destructive">
          {t('auth.onboarding.fetchFailed')}
        </p>
      </AuthShell>
    );
  }
  const info = profile ?? {
    firstName: invitation.data.firstName,
    lastName: invitation.data.lastName,
    jobTitle: invitation.data.jobTitle,
  };
  const setInfo = (patch: Partial<typeof info>) => setProfile({ ...info, ...patch });
  const stepValid = [
    passwordOk(password) && password === confirm,
    info.firstName.trim() !== '' && info.lastName.trim() !== '',
    accepted,
  ];

  async function next(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!stepValid[step]) return;
    setTried(false);
    if (step < STEPS.length - 1) {
      setStep(step + 1);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const tokens = await api.post<TokenAnswer>(
        '/users/onboarding/complete',
        {
          token,
          password,
          firstName: info.firstName,
          lastName: info.lastName,
          jobTitle: info.jobTitle,
          accept_terms: true,
        },
        { auth: false },
      );
      await startSession(queryClient, tokens);
      await navigate({ to: '/' });
    } catch (err) {
      setError(
        err instanceof ApiError && err.status !== 0
          ? errorText(err, t('auth.onboarding.completeFailed'))
          : t('auth.onboarding.completeFailed'),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthShell
      title={t('auth.onboarding.title')}
      description={t('auth.onboarding.subtitle', { email: invitation.data.email })}
    >
      <ol className="mb-5 flex gap-2" aria-label={t('auth.onboarding.progress')}>
        {STEPS.map((name, index) => (
          <li
            key={name}
            aria-current={index === step ? 'step' : undefined}
            className={cn(
              'flex-1 border-t-2 pt-2 text-xs font-medium',
              index <= step ? 'border-primary text-foreground' : 'border-border text-muted-foreground',
            )}
          >
            {index + 1}. {t(`auth.onboarding.steps.${name}`)}
          </li>
        ))}
      </ol>
      <form onSubmit={next} className="grid gap-4" noValidate>
        {step === 0 ? (
          <PasswordFields
            password={password}
            confirm={confirm}
            onPassword={setPassword}
            onConfirm={setConfirm}
            showErrors={tried}
          />
        ) : null}
        {step === 1 ? (
          <>
            <Field
              label={t('common.firstName')}
              value={info.firstName}
              autoComplete="given-name"
              onChange={(e) => setInfo({ firstName: e.target.value })}
              error={tried && !info.firstName.trim() ? t('common.required') : undefined}
            />
            <Field
              label={t('common.lastName')}
              value={info.lastName}
              autoComplete="family-name"
              onChange={(e) => setInfo({ lastName: e.target.value })}
              error={tried && !info.lastName.trim() ? t('common.required') : undefined}
            />
            <Field
              label={t('common.jobTitle')}
              value={info.jobTitle}
              onChange={(e) => setInfo({ jobTitle: e.target.value })}
            />
          </>
        ) : null}
        {step === 2 ? (
          <div className="grid gap-2">
            <div className="flex items-start gap-2">
              <Checkbox
                id="accept-terms"
                checked={accepted}
                onCheckedChange={(v) => setAccepted(v === true)}
              />
              <Label htmlFor="accept-terms" className="leading-snug">
                {t('auth.onboarding.acceptTerms')}
              </Label>
            </div>
            {tried && !accepted ? (
              <p role="alert" className="text-xs text-destructive">
                {t('auth.onboarding.termsRequired')}
              </p>
            ) : null}
          </div>
        ) : null}
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
        <div className="flex justify-between gap-2">
          <Button type="button" variant="outline" disabled={step === 0} onClick={() => setStep(step - 1)}>
            {t('common.previous')}
          </Button>
          <Button type="submit" disabled={busy}>
            {step === STEPS.length - 1 ? t('auth.onboarding.finish') : t('common.next')}
          </Button>
        </div>
      </form>
    </AuthShell>
  );
}
