import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { toasts } from '../../lib/toast';
import { useAuth } from '../actors';
import { PRODUCT_NAME } from '../routes';
import { EnvSwitcher } from './EnvSwitcher';
import { Header } from './Header';
import { OfflineBadge } from './OfflineBadge';
import styles from './Shell.module.css';
import { WhenSettled } from './WhenSettled';

const Toaster = lazy(() => import('../../components/Toaster').then((module) => ({ default: module.Toaster })));
const PwaPrompts = lazy(() => import('./PwaPrompts').then((module) => ({ default: module.PwaPrompts })));
const InstallPromptSlot = lazy(() => import('./PwaPrompts').then((module) => ({ default: module.InstallPromptSlot })));

export function Shell({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const year = new Date().getFullYear();
  // A toast raised before the page settled loads the toaster at once.
  const hasToasts = useSyncExternalStore(toasts.subscribe, () => toasts.snapshot().length > 0);
  return (
    <>
      <a className={styles.skip} href="#main-content">
        {t`Skip to content`}
      </a>
      <Header />
      <OfflineBadge />
      <main id="main-content" className={styles.main}>
        {children}
      </main>
      <WhenSettled>
        <InstallPromptSlot />
      </WhenSettled>
      <footer className={styles.footer}>
        © {year} {PRODUCT_NAME}
      </footer>
      <LoginPromptWhenAsked />
      {import.meta.env.DEV && <EnvSwitcher />}
      <WhenSettled>
        <PwaPrompts />
      </WhenSettled>
      <WhenSettled now={hasToasts}>
        <Toaster />
      </WhenSettled>
    </>
  );
}

/** The login dialog's code (dialog, tabs, form) loads only when a session actually needs it. */
const LoginPrompt = lazy(() => import('./LoginPrompt'));

function LoginPromptWhenAsked() {
  const { prompt } = useAuth();
  if (prompt === undefined) return null;
  return (
    <Suspense fallback={null}>
      <LoginPrompt />
    </Suspense>
  );
}
