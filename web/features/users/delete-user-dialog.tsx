import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ui/dialog';
import { ErrorText } from '../../components/ui/field';
import { currentLanguage } from '../../i18n';
import { useRequest } from '../../lib/use-request';
import { deleteUser, type UserDto } from './api';

/**
 * Users List's delete confirmation. The admin deleting a manager may also erase the team's
 * Contact History, archive included (docs/decisions/0185-erasing-a-deleted-team.md): an unticked
 * choice that, once ticked, says what is lost and renames the button. A refusal stays in the
 * dialog, so the admin reads it and may try again (503 while the company moves).
 */
export function DeleteUserDialog(props: { user: UserDto | null; isAdmin: boolean; onClose: () => void; onDeleted: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const { user } = props;
  const [erase, setErase] = useState(false);
  const { loading, error, clearError, run } = useRequest();
  const warningId = useId();
  const offerErase = props.isAdmin && user?.userType === 'manager';
  const erasing = offerErase && erase;

  // the next opening starts unticked, without this one's error
  const close = () => {
    setErase(false);
    clearError();
    props.onClose();
  };

  const confirm = async () => {
    if (!user) return;
    const { name } = user;
    // English: the server's own words; another language: the same fact in it
    const res = await run(() => deleteUser(user._id, erasing), {
      success: (r) => (erasing ? t('users.erased', { name }) : currentLanguage() === 'en' ? r.message : t('users.deleted', { name })),
    });
    if (!res) return;
    close();
    await props.onDeleted();
  };

  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={(open) => !open && close()}
      message={t('users.confirmDelete', { name: user?.name ?? '' })}
      confirmLabel={erasing ? t('users.deleteAndErase') : t('users.delete')}
      dismissLabel={t('users.cancel')}
      onConfirm={confirm}
      busy={loading}
    >
      {offerErase && (
        <div className="erase-team">
          <label className="check-line">
            <input
              type="checkbox"
              checked={erase}
              data-testid="erase-history"
              aria-describedby={erase ? warningId : undefined}
              onChange={(e) => {
                setErase(e.target.checked);
                clearError();
              }}
            />
            {t('users.eraseHistory')}
          </label>
          {erase && (
            <p className="erase-warning" id={warningId} data-testid="erase-warning">
              {t('users.eraseWarning', { name: user?.name ?? '' })}
            </p>
          )}
        </div>
      )}
      <ErrorText>{error}</ErrorText>
    </ConfirmDialog>
  );
}
