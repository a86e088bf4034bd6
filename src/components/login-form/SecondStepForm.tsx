import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import type { RequestFailure } from '../../../contract/envelope';
import type { SecondFactorMethod } from '../../../contract/two-factor';
import { Button } from '../Button';
import { Field } from '../Field';
import styles from './LoginForm.module.css';

export interface SecondStepFormProps {
  busy: boolean;
  methods: SecondFactorMethod[];
  serverError?: RequestFailure;
  onCode: (code: string) => void;
  onPasskey: () => void;
  onCancel: () => void;
}

/** After a right password: a code from the authenticator app or a recovery code, or a passkey. */
export function SecondStepForm({ busy, methods, serverError, onCode, onPasskey, onCancel }: SecondStepFormProps) {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const [localError, setLocalError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setLocalError(t`Please enter a code`);
    setLocalError(undefined);
    onCode(code.trim());
  };

  const error = localError ?? serverError?.message;
  return (
    <form onSubmit={submit} noValidate aria-label={t`Second step`}>
      <p>{t`Your password is right. Confirm it is you with your second factor.`}</p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <Field
        label={methods.includes('totp') ? t`Authentication code` : t`Recovery code`}
        hint={methods.includes('totp') ? t`The 6 digits your authenticator app shows, or one of your recovery codes.` : undefined}
      >
        <input
          name="code"
          autoComplete="one-time-code"
          spellCheck={false}
          className="mono"
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <Button type="submit" variant="primary" className={styles.submit} disabled={busy}>
        {busy ? t`Checking…` : t`Verify`}
      </Button>
      {methods.includes('passkey') && (
        <Button className={styles.another} disabled={busy} onClick={onPasskey}>
          {t`Use a passkey`}
        </Button>
      )}
      <Button variant="ghost" className={styles.another} disabled={busy} onClick={onCancel}>
        {t`Back to the password`}
      </Button>
    </form>
  );
}
