import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../../contract/envelope';
import type { TotpSetup } from '../../../../../contract/two-factor';
import { Button } from '../../../../components/Button';
import { Field } from '../../../../components/Field';
import { QrCode } from '../../../../components/share-link/QrCode';
import { beginTotp, confirmTotp } from '../../../../lib/api/two-factor';
import styles from '../Settings.module.css';

/** Sets up an authenticator app: a QR code and the secret as text, then a first code turns it on. */
export function TotpEnrolment({ onEnrolled }: { onEnrolled: (recoveryCodes: string[] | null) => void }) {
  const { t } = useLingui();
  const [setup, setSetup] = useState<TotpSetup>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await step();
    } catch (failure) {
      setError(asRequestFailure(failure).message);
    } finally {
      setBusy(false);
    }
  };

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setError(t`Please enter a code`);
    void run(async () => onEnrolled((await confirmTotp(code.trim())).recoveryCodes));
  };

  if (!setup) {
    return (
      <>
        {error && <p className="form-error" role="alert">{error}</p>}
        <Button onClick={() => void run(async () => setSetup(await beginTotp()))} disabled={busy}>
          {t`Set up an authenticator app`}
        </Button>
      </>
    );
  }
  return (
    <form onSubmit={confirm} noValidate>
      <p>{t`Scan the code with an authenticator app, or type the secret key into it. Then enter the code it shows.`}</p>
      <QrCode data={setup.uri} label={t`QR code for the authenticator app`} />
      <Field label={t`Secret key`}>
        <input name="totpSecret" readOnly className={`mono ${styles.secret}`} value={setup.secret} onFocus={(e) => e.target.select()} />
      </Field>
      <Field label={t`Code from the app`} error={error}>
        <input name="totpCode" autoComplete="one-time-code" inputMode="numeric" className="mono" value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <Button type="submit" variant="primary" disabled={busy}>
        {t`Turn on`}
      </Button>
    </form>
  );
}
