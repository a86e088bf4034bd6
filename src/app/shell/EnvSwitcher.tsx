import { useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { useSearch } from 'wouter';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { backendBaseUrl, saveBackendUrl } from '../../lib/backend-url';
import { useAuth } from '../use-auth';
import styles from './EnvSwitcher.module.css';

/**
 * Development only: points the app at another backend. Shown when an admin token exists and the URL has
 * `?showEnvSwitcher`. Saving reloads so that every cached answer comes from the new backend.
 */
export function EnvSwitcher() {
  const { t } = useLingui();
  const search = useSearch();
  const { hasAdminToken } = useAuth();
  const [url, setUrl] = useState(backendBaseUrl());
  if (!hasAdminToken || !new URLSearchParams(search).has('showEnvSwitcher')) return null;

  const save = (event: FormEvent) => {
    event.preventDefault();
    saveBackendUrl(url === window.location.origin ? undefined : url);
    window.location.reload();
  };
  return (
    <aside className={styles.panel} aria-label={t`Backend switcher`}>
      <form onSubmit={save}>
        <Field label={t`Backend URL`} hint={t`Development only. Empty means this origin.`}>
          <input type="url" value={url} onChange={(event) => setUrl(event.target.value)} />
        </Field>
        <div className={styles.actions}>
          <Button onClick={() => { saveBackendUrl(undefined); window.location.reload(); }}>{t`Reset`}</Button>
          <Button type="submit" variant="primary">
            {t`Switch`}
          </Button>
        </div>
      </form>
    </aside>
  );
}
