import * as Tabs from '@radix-ui/react-tabs';
import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import type { RequestFailure } from '../../../contract/envelope';
import { Button } from '../Button';
import { Field } from '../Field';
import styles from './LoginForm.module.css';

type Mode = 'admin' | 'apiKey';

export interface LoginFormProps {
  busy: boolean;
  serverError?: RequestFailure;
  onAdminLogin: (username: string, password: string) => void;
  onApiKeyLogin: (apiKey: string) => void;
}

/** Both ways in: an admin account, or an API key. Checks the required fields (username and password, or the key) before sending. */
export function LoginForm({ busy, serverError, onAdminLogin, onApiKeyLogin }: LoginFormProps) {
  const { t } = useLingui();
  const [mode, setMode] = useState<Mode>('admin');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [localError, setLocalError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'admin') {
      if (!username.trim() || !password) return setLocalError(t`Please enter username and password`);
      setLocalError(undefined);
      onAdminLogin(username.trim(), password);
    } else {
      if (!apiKey.trim()) return setLocalError(t`Please enter API key`);
      setLocalError(undefined);
      onApiKeyLogin(apiKey.trim());
    }
  };

  const error = localError ?? serverError?.message;
  return (
    <Tabs.Root value={mode} onValueChange={(value) => { setMode(value as Mode); setLocalError(undefined); }}>
      <Tabs.List className={styles.tabs} aria-label={t`Login method`}>
        <Tabs.Trigger className={styles.tab} value="admin">
          {t`Admin account`}
        </Tabs.Trigger>
        <Tabs.Trigger className={styles.tab} value="apiKey">
          {t`API key`}
        </Tabs.Trigger>
      </Tabs.List>
      <form onSubmit={submit} noValidate>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <Tabs.Content value="admin">
          <Field label={t`Username`}>
            <input name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
          </Field>
          <Field label={t`Password`}>
            <input
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
        </Tabs.Content>
        <Tabs.Content value="apiKey">
          <Field label={t`API key`}>
            <input name="apiKey" autoComplete="off" spellCheck={false} className="mono" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
          </Field>
        </Tabs.Content>
        <Button type="submit" variant="primary" className={styles.submit} disabled={busy}>
          {busy ? t`Logging in…` : t`Log in`}
        </Button>
      </form>
    </Tabs.Root>
  );
}
