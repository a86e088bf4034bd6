import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../../contract/envelope';
import { PASSKEY_NAME_MAX, type Passkey } from '../../../../../contract/two-factor';
import { Button } from '../../../../components/Button';
import { Field } from '../../../../components/Field';
import { addPasskey, removePasskey, renamePasskey } from '../../../../lib/api/two-factor';
import { formatDateTime } from '../../../../lib/format';
import { toasts } from '../../../../lib/toast';
import styles from '../Settings.module.css';

interface PasskeyListProps {
  passkeys: Passkey[];
  /** False while the only passkey is the only second factor: turning off is the way to remove it. */
  removable: boolean;
  onChanged: (recoveryCodes: string[] | null) => void;
}

/** The admin's passkeys: add one of this device, rename, remove. */
export function PasskeyList({ passkeys, removable, onChanged }: PasskeyListProps) {
  const { t, i18n } = useLingui();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  const act = async (step: () => Promise<string[] | null>) => {
    setBusy(true);
    try {
      onChanged(await step());
    } catch (failure) {
      toasts.error(asRequestFailure(failure).message);
    } finally {
      setBusy(false);
    }
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      const { recoveryCodes } = await addPasskey(name.trim() || t`Passkey`);
      setName('');
      toasts.success(t`Passkey added`);
      return recoveryCodes;
    });
  };

  const rename = (passkey: Passkey) => {
    const next = window.prompt(t`New name of the passkey`, passkey.name)?.trim();
    if (next && next !== passkey.name) void act(async () => (await renamePasskey(passkey.id, next.slice(0, PASSKEY_NAME_MAX)), null));
  };

  return (
    <>
      {passkeys.length === 0 ? (
        <p>{t`No passkeys yet.`}</p>
      ) : (
        <ul aria-label={t`Passkeys`} className={styles.passkeys}>
          {passkeys.map((passkey) => (
            <li key={passkey.id}>
              <span>
                <strong>{passkey.name}</strong>
                <br />
                <small>{t`Added ${formatDateTime(passkey.createdAt, i18n.locale)}, last used ${formatDateTime(passkey.lastUsedAt, i18n.locale)}`}</small>
              </span>
              <Button size="small" disabled={busy} onClick={() => rename(passkey)} aria-label={t`Rename ${passkey.name}`}>
                {t`Rename`}
              </Button>
              <Button
                size="small"
                variant="danger"
                disabled={busy || !removable}
                title={removable ? undefined : t`The last second factor: turn two-factor sign-in off instead`}
                onClick={() => void act(async () => (await removePasskey(passkey.id), null))}
                aria-label={t`Remove ${passkey.name}`}
              >
                {t`Remove`}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={add} noValidate>
        <Field label={t`Name of the new passkey`} hint={t`For example the device it is on.`}>
          <input name="passkeyName" maxLength={PASSKEY_NAME_MAX} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Button type="submit" disabled={busy}>
          {t`Add a passkey`}
        </Button>
      </form>
    </>
  );
}
