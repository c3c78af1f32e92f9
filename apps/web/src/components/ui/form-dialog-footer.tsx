import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { DialogFooter } from './dialog';

/**
 * The footer every form dialog shares: an optional Back (to the kind picker), Cancel, and the submit
 * button named for what it does (Create, Add, Update or Save), disabled while the form is busy or not ready.
 */
export function FormDialogFooter({
  action,
  disabled,
  onCancel,
  back,
}: {
  action: 'create' | 'add' | 'update' | 'save';
  disabled: boolean;
  onCancel: () => void;
  back?: { label: string; onClick: () => void } | null;
}) {
  const { t } = useTranslation();
  return (
    <DialogFooter>
      {back ? (
        <Button type="button" variant="ghost" className="sm:mr-auto" onClick={back.onClick}>
          <ArrowLeft /> {back.label}
        </Button>
      ) : null}
      <Button type="button" variant="outline" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" disabled={disabled}>
        {t(`common.${action}`)}
      </Button>
    </DialogFooter>
  );
}
