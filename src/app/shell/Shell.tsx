import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Toaster } from '../../components/Toaster';
import { PRODUCT_NAME } from '../routes';
import { EnvSwitcher } from './EnvSwitcher';
import { Header } from './Header';
import { LoginPrompt } from './LoginPrompt';
import styles from './Shell.module.css';

export function Shell({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const year = new Date().getFullYear();
  return (
    <>
      <a className={styles.skip} href="#main-content">
        {t`Skip to content`}
      </a>
      <Header />
      <main id="main-content" className={styles.main}>
        {children}
      </main>
      <footer className={styles.footer}>
        © {year} {PRODUCT_NAME}
      </footer>
      <LoginPrompt />
      {import.meta.env.DEV && <EnvSwitcher />}
      <Toaster />
    </>
  );
}
