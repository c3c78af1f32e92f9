import { PASSWORD_RULES } from '@atelier/schemas/password-rules';
import { Check, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { cn } from '@/lib/utils';

export const passwordOk = (password: string) => PASSWORD_RULES.every((rule) => rule.test(password));

/** A new password with the policy as a live checklist, and its confirmation. */
export function PasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  showErrors,
}: {
  password: string;
  confirm: string;
  onPassword(value: string): void;
  onConfirm(value: string): void;
  showErrors: boolean;
}) {
  const { t } = useTranslation();
  const mismatch = confirm.length > 0 && confirm !== password;
  return (
    <>
      <Field
        label={t('password.new')}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => onPassword(e.target.value)}
        error={showErrors && !password ? t('common.required') : undefined}
      />
      <ul className="grid gap-1 text-xs" aria-label={t('password.policy')}>
        {PASSWORD_RULES.map((rule) => {
          const ok = rule.test(password);
          return (
            <li
              key={rule.id}
              className={cn('flex items-center gap-1.5', ok ? 'text-success' : 'text-muted-foreground')}
            >
              {ok ? <Check className="size-3.5" /> : <X className="size-3.5" />}
              {t(`password.rules.${rule.id}`)}
            </li>
          );
        })}
      </ul>
      <Field
        label={t('password.confirm')}
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => onConfirm(e.target.value)}
        error={mismatch || (showErrors && confirm !== password) ? t('password.mismatch') : undefined}
      />
    </>
  );
}
