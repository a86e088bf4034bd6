import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useLoadedActors, useSnapshotValue } from '../actors';
import { whenSettled } from '../../lib/idle';
import { toasts } from '../../lib/toast';
import { PRODUCT_NAME } from '../routes';
import { Header } from './Header';
import { OfflineBadge } from './OfflineBadge';
import { InstallPromptSlot, PwaPrompts } from './PwaPrompts';
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
      <OfflineBadge />
      <main id="main-content" className={styles.main}>
        {children}
      </main>
      <InstallPromptSlot />
      <footer className={styles.footer}>
        © {year} {PRODUCT_NAME}
      </footer>
      <LoginPromptWhenAsked />
      {import.meta.env.DEV && (
        <Suspense fallback={null}>
          <EnvSwitcher />
        </Suspense>
      )}
      <PwaPrompts />
      <ToasterWhenNeeded />
    </>
  );
}

/** Development only: outside the production build's module graph, which would otherwise carry its imports. */
const EnvSwitcher = import.meta.env.DEV
  ? lazy(() => import('./EnvSwitcher').then((module) => ({ default: module.EnvSwitcher })))
  : () => null;

/** The login dialog's code (dialog, tabs, form) loads only when a session actually needs it. */
const LoginPrompt = lazy(() => import('./LoginPrompt'));

function LoginPromptWhenAsked() {
  // Only the auth machine asks: nothing to wait for before it has loaded.
  const prompt = useSnapshotValue(useLoadedActors()?.auth, (snapshot) => snapshot?.context.prompt);
  if (prompt === undefined) return null;
  return (
    <Suspense fallback={null}>
      <LoginPrompt />
    </Suspense>
  );
}

/**
 * The toasts' code (Radix Toast) is no part of a first load: it loads with the first toast, or once the page has
 * settled (the service worker precaches it, for offline use).
 */
const Toaster = lazy(() => import('../../components/Toaster').then((module) => ({ default: module.Toaster })));

function ToasterWhenNeeded() {
  const [settled, setSettled] = useState(false);
  const anyToast = useSyncExternalStore(toasts.subscribe, () => toasts.snapshot().length > 0);
  useEffect(() => whenSettled(() => setSettled(true)), []);
  if (!settled && !anyToast) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
