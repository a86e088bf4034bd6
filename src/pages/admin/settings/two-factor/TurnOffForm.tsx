import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { asRequestFailure } from '../../../../../contract/envelope';
import { Button } from '../../../../components/Button';
import { Field } from '../../../../components/Field';
import { disableTwoFactor } from '../../../../lib/api/two-factor';
import { toasts } from '../../../../lib/toast';

/** Turning two-factor sign-in off takes the password and a code, so that an open session alone cannot. */
export function TurnOffForm({ onTurnedOff }: { onTurnedOff: () => void }) {
  const { t } = useLingui();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password || !code.trim()) return setError(t`Enter your password and a code`);
    setBusy(true);
    setError(undefined);
    try {
      await disableTwoFactor({ password, code: code.trim() });
      toasts.success(t`Two-factor sign-in turned off`);
      onTurnedOff();
    } catch (failure) {
      setError(asRequestFailure(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={t`Turn off two-factor sign-in`}>
      {error && <p className="form-error" role="alert">{error}</p>}
      <Field label={t`Password`}>
        <input name="disablePassword" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <Field label={t`Authentication or recovery code`}>
        <input name="disableCode" autoComplete="one-time-code" className="mono" value={code} onChange={(e) => setCode(e.target.value)} />
      </Field>
      <Button type="submit" variant="danger" disabled={busy}>
        {t`Turn off two-factor sign-in`}
      </Button>
    </form>
  );
}
