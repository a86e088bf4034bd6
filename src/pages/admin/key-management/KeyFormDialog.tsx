import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import type { ApiKey, CreatedApiKey } from '../../../../contract/api-keys';
import { PERMISSIONS, type Permission } from '../../../../contract/auth';
import { Button } from '../../../components/Button';
import { Dialog, dialogStyles } from '../../../components/Dialog';
import { Field, fieldStyles } from '../../../components/Field';
import { createApiKey, updateApiKey } from '../../../lib/api/api-keys';
import { asRequestFailure } from '../../../../contract/envelope';
import {
  expiresAtFor,
  keyFormValuesOf,
  NEW_KEY_FORM,
  permissionFields,
  validateKeyForm,
  type EditExpiryChoice,
  type KeyFormErrors,
  type KeyFormValues,
} from './key-form';

interface KeyFormDialogProps {
  /** The key being edited; absent when creating. */
  editing?: ApiKey;
  onClose: () => void;
  /** A new key, with the whole key: the only time it is known. */
  onCreated: (key: CreatedApiKey) => void;
  onUpdated: (key: ApiKey) => void;
}

export function KeyFormDialog({ editing, onClose, onCreated, onUpdated }: KeyFormDialogProps) {
  const { t } = useLingui();
  const [values, setValues] = useState<KeyFormValues>(editing ? keyFormValuesOf(editing) : NEW_KEY_FORM);
  const [errors, setErrors] = useState<KeyFormErrors>({});
  const [serverError, setServerError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof KeyFormValues>(field: K, value: KeyFormValues[K]) =>
    setValues((previous) => ({ ...previous, [field]: value }));
  const setPermission = (permission: Permission, granted: boolean) =>
    setValues((previous) => ({ ...previous, permissions: { ...previous.permissions, [permission]: granted } }));

  const errorText: Record<keyof KeyFormErrors, Partial<Record<NonNullable<KeyFormErrors[keyof KeyFormErrors]>, string>>> = {
    name: { required: t`Please enter a key name` },
    customDays: {
      required: t`Please enter the number of days`,
      invalid: t`Please enter a whole number of days from 1 to 36500`,
    },
    customKey: {
      required: t`Please enter a custom key`,
      characters: t`The key may contain only letters, digits, underscore and hyphen`,
      length: t`The key must be 8 to 64 characters long`,
    },
    basicPath: { invalid: t`Enter an absolute path such as / or /team/docs` },
  };
  const messageFor = (field: keyof KeyFormErrors) => {
    const code = errors[field];
    return code ? errorText[field][code] : undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateKeyForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    setServerError(undefined);
    const common = {
      name: values.name.trim(),
      ...permissionFields(values.permissions),
      basic_path: values.basicPath.trim() || '/',
    };
    const expiresAt = expiresAtFor(values, new Date());
    try {
      if (editing) {
        onUpdated(await updateApiKey(editing.id, { ...common, ...(expiresAt !== undefined && { expires_at: expiresAt }) }));
      } else {
        onCreated(
          await createApiKey({
            ...common,
            expires_at: expiresAt ?? null,
            ...(values.useCustomKey && { custom_key: values.customKey.trim() }),
          }),
        );
      }
    } catch (error) {
      setServerError(asRequestFailure(error).message);
    } finally {
      setSaving(false);
    }
  };

  const permissionLabels: Record<Permission, string> = {
    text: t`Text: create and manage pastes`,
    file: t`Files: upload and manage file shares`,
    mount: t`Mounts: browse and change mounted storage`,
    expense: t`Expense claims: file and track own claims`,
  };

  const expiryOptions: { value: EditExpiryChoice; label: string }[] = [
    ...(editing ? [{ value: 'keep' as const, label: t`Keep current expiry` }] : []),
    { value: '1d', label: t`1 day` },
    { value: '7d', label: t`7 days` },
    { value: '30d', label: t`30 days` },
    { value: 'never', label: t`Never expires` },
    { value: 'custom', label: t`Custom (days)` },
  ];

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={editing ? t`Edit API key` : t`Create API key`}>
      <form onSubmit={submit} noValidate>
        {serverError && (
          <p className={fieldStyles.error} role="alert">
            {serverError}
          </p>
        )}
        <Field label={t`Name`} error={messageFor('name')}>
          <input name="name" value={values.name} maxLength={50} onChange={(e) => set('name', e.target.value)} />
        </Field>
        <Field label={t`Expires`}>
          <select name="expiry" value={values.expiry} onChange={(e) => set('expiry', e.target.value as EditExpiryChoice)}>
            {expiryOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </Field>
        {values.expiry === 'custom' && (
          <Field label={t`Days until it expires`} error={messageFor('customDays')}>
            <input
              name="customDays"
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              value={values.customDays}
              onChange={(e) => set('customDays', e.target.value)}
            />
          </Field>
        )}
        {!editing && (
          <div className={fieldStyles.field}>
            <label className={fieldStyles.checkbox}>
              <input
                type="checkbox"
                name="useCustomKey"
                checked={values.useCustomKey}
                onChange={(e) => set('useCustomKey', e.target.checked)}
              />
              {t`Choose the key myself`}
            </label>
          </div>
        )}
        {!editing && values.useCustomKey && (
          <Field label={t`Custom key`} hint={t`8 to 64 letters, digits, underscores or hyphens`} error={messageFor('customKey')}>
            <input
              name="customKey"
              className="mono"
              autoComplete="off"
              spellCheck={false}
              value={values.customKey}
              onChange={(e) => set('customKey', e.target.value)}
            />
          </Field>
        )}
        <fieldset className={fieldStyles.field}>
          <legend className={fieldStyles.label}>{t`Permissions`}</legend>
          {PERMISSIONS.map((permission) => (
            <label key={permission} className={fieldStyles.checkbox}>
              <input
                type="checkbox"
                name={permission}
                checked={values.permissions[permission]}
                onChange={(e) => setPermission(permission, e.target.checked)}
              />
              {permissionLabels[permission]}
            </label>
          ))}
        </fieldset>
        <Field label={t`Base path`} hint={t`The key reaches only this folder and below.`} error={messageFor('basicPath')}>
          <input
            name="basicPath"
            className="mono"
            value={values.basicPath}
            onChange={(e) => set('basicPath', e.target.value)}
          />
        </Field>
        <div className={dialogStyles.actions}>
          <Button onClick={onClose}>{t`Cancel`}</Button>
          <Button type="submit" variant="primary" disabled={saving}>
            {saving ? t`Saving…` : editing ? t`Save changes` : t`Create key`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
