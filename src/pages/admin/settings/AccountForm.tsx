import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { PASSWORD_MIN } from '../../../../contract/auth';
import { asRequestFailure } from '../../../../contract/envelope';
import { useAuth } from '../../../app/use-auth';
import { Button } from '../../../components/Button';
import { Field } from '../../../components/Field';
import { changePassword } from '../../../lib/api/auth';
import { toasts } from '../../../lib/toast';

type Errors = Partial<Record<'currentPassword' | 'newUsername' | 'newPassword' | 'form', string>>;

/** Changes the admin's username and/or password; the server then ends every session, so we log out. */
export function AccountForm() {
  const { t } = useLingui();
  const { send } = useAuth();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newUsername, setNewUsername] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const validate = (): Errors => {
    const found: Errors = {};
    if (!currentPassword) found.currentPassword = t`Please enter the current password`;
    if (!newUsername.trim() && !newPassword) found.form = t`Enter a new username or a new password`;
    if (newPassword && newPassword === currentPassword) found.newPassword = t`The new password must differ from the current one`;
    else if (newPassword && newPassword.length < PASSWORD_MIN) found.newPassword = t`The new password needs at least ${PASSWORD_MIN} characters`;
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await changePassword({
        currentPassword,
        ...(newUsername.trim() && { newUsername: newUsername.trim() }),
        ...(newPassword && { newPassword }),
      });
      toasts.success(t`Login details changed, please log in again`);
      send({ type: 'auth.credentialsChanged' });
    } catch (failure) {
      setErrors({ form: asRequestFailure(failure).message });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      {errors.form && (
        <p role="alert" className="form-error">
          {errors.form}
        </p>
      )}
      <Field label={t`Current password`} error={errors.currentPassword}>
        <input
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={(e) => setCurrentPassword(e.target.value)}
        />
      </Field>
      <Field label={t`New username`} hint={t`Leave empty to keep the current one.`}>
        <input name="newUsername" autoComplete="username" value={newUsername} onChange={(e) => setNewUsername(e.target.value)} />
      </Field>
      <Field label={t`New password`} hint={t`Leave empty to keep the current one.`} error={errors.newPassword}>
        <input
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
        />
      </Field>
      <Button type="submit" variant="primary" disabled={saving}>
        {saving ? t`Saving…` : t`Change login details`}
      </Button>
    </form>
  );
}
