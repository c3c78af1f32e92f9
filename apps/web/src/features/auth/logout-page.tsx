import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthShell } from './auth-shell';
import { endSession } from './session';

/** Revokes the session on the server, forgets it here, then goes to the login page. */
export default function LogoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    void endSession(queryClient).then(() => navigate({ to: '/login', replace: true }));
  }, [navigate, queryClient]);
  return (
    <AuthShell title={t('auth.logout.title')} description={t('auth.logout.message')}>
      {null}
    </AuthShell>
  );
}
