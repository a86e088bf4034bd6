import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import styles from './Admin.module.css';

/** The login page's card; `returning` when a page sent the person here and they go back there once signed in. */
export function LoginCard({ title, returning = false, children }: { title: string; returning?: boolean; children: ReactNode }) {
  const { t } = useLingui();
  return (
    <section className={styles.loginCard}>
      <h1>{title}</h1>
      {returning && <p className={styles.loginReturn}>{t`After logging in you go back to where you were, with your work.`}</p>}
      {children}
    </section>
  );
}
