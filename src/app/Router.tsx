import { useLingui } from '@lingui/react/macro';
import { Component, Suspense, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { PageSkeleton } from '../components/PageSkeleton';
import { Button } from '../components/Button';
import { Notice } from '../components/Notice';
import { OfflineFallbackPage } from '../pages/offline/OfflineFallbackPage';
import { useNetworkUnavailable } from './pwa-hooks';
import { PRODUCT_NAME, routes, type RouteEntry } from './routes';

export function AppRouter() {
  useScrollRestoration();
  return (
    <Switch>
      {routes.map((entry) => (
        <Route key={entry.path} path={entry.path}>
          {(params: Record<string, string | undefined>) => <RoutePage entry={entry} params={params} />}
        </Route>
      ))}
      <Route>
        <Redirect to="/" replace />
      </Route>
    </Switch>
  );
}

function RoutePage({ entry, params }: { entry: RouteEntry; params: Record<string, string | undefined> }) {
  const { i18n } = useLingui();
  // Translated during render, so that a language switch re-titles the page too.
  const title = i18n._(entry.titleFor?.(params) ?? entry.title);
  useEffect(() => {
    document.title = `${title} - ${PRODUCT_NAME}`;
  }, [title]);
  const Page = entry.page;
  return (
    <PageLoadBoundary>
      <Suspense fallback={<PageSkeleton />}>
        <Page />
      </Suspense>
    </PageLoadBoundary>
  );
}

/** Top of the page on every new navigation; back and forward return to where the user was. */
function useScrollRestoration() {
  const [location] = useLocation();
  const positions = useRef(new Map<string, number>());
  const previous = useRef(location);
  const poppedState = useRef(false);

  useEffect(() => {
    const onPop = () => (poppedState.current = true);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  useLayoutEffect(() => {
    if (previous.current === location) return;
    positions.current.set(previous.current, window.scrollY);
    previous.current = location;
    const saved = poppedState.current ? positions.current.get(location) : undefined;
    poppedState.current = false;
    window.scrollTo(0, saved ?? 0);
  }, [location]);
}

interface BoundaryState {
  failed: boolean;
}

/** A page chunk that fails to load (a new deploy, a lost connection) offers a retry instead of a blank screen. */
class PageLoadBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { failed: false };
  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return <PageLoadFailed />;
  }
}

function PageLoadFailed() {
  const { t } = useLingui();
  // The page's code was never cached and the network is gone: the offline fallback page.
  const offline = useNetworkUnavailable();
  if (offline === undefined) return <PageSkeleton />;
  if (offline) return <OfflineFallbackPage />;
  return (
    <Notice
      role="alert"
      title={t`This page could not be loaded`}
      actions={
        <Button variant="primary" onClick={() => window.location.reload()}>
          {t`Retry`}
        </Button>
      }
    >
      {t`Check your network connection and try again.`}
    </Notice>
  );
}
