import { useTranslation } from 'react-i18next';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useWorkspaceRoles } from './queries';

export function WorkspaceRoleSelect({
  value,
  onChange,
  label,
  id,
  wide = false,
  disabled = false,
}: {
  value: string | undefined;
  onChange(value: string): void;
  label: string;
  id?: string;
  /** Full width in a form; a fixed width beside a member's name. */
  wide?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const roles = useWorkspaceRoles();
  return (
    <Select value={value ?? ''} onValueChange={onChange} disabled={disabled}>
      <SelectTrigger id={id} aria-label={label} className={wide ? undefined : 'w-48 shrink-0'}>
        <SelectValue placeholder={t('workspaceSelection.share.selectRole')} />
      </SelectTrigger>
      <SelectContent>
        {(roles.data ?? []).map((role) => (
          <SelectItem key={role.id} value={role.id}>
            {t(`roles.workspace.${role.id}`, { defaultValue: role.name })}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
