import { useLingui } from '@lingui/react/macro';
import Lock from 'lucide-react/icons/lock';
import { useState, type FormEvent, type ReactNode } from 'react';
import { asRequestFailure } from '../../contract/envelope';
import { Button } from './Button';
import { Field } from './Field';
import styles from './PasswordGate.module.css';

interface PasswordGateProps {
  title: string;
  onPassword: (password: string) => Promise<void>;
  /** What the share is, shown above the form (a share with a view limit says what opening it spends). */
  children?: ReactNode;
}

/** Asks for a share's password; shows the server's answer (e.g. "wrong password") when it is refused. */
export function PasswordGate({ title, onPassword, children }: PasswordGateProps) {
  const { t } = useLingui();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(t`Please enter the password`);
    setBusy(true);
    setError(undefined);
    try {
      await onPassword(password);
    } catch (failure) {
      setError(asRequestFailure(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.gate}>
      <Lock size={28} aria-hidden className={styles.icon} />
      <h1>{title}</h1>
      <p className={styles.text}>{t`Enter the password you were given to open it.`}</p>
      {children}
      <form onSubmit={submit} noValidate>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <Field label={t`Password`}>
          <input name="password" type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <Button type="submit" variant="primary" disabled={busy}>
          {busy ? t`Opening…` : t`Open`}
        </Button>
      </form>
    </section>
  );
}
