import { i18n } from '@lingui/core';
import { startTransition, StrictMode } from 'react';
import type { ActorOptions, AnyActorLogic } from 'xstate';
import { configureApiClient } from '../lib/api/client';
import { activateLocale, initialLocale, loadWholeCatalog } from '../lib/i18n';
import { whenSettled } from '../lib/idle';
import { listenForInstallOffers } from '../lib/install';
import { createActorsLoader } from './actors';
import { App } from './App';
import { routeAt } from './routes';
import { readStoredCredentials } from './stored-state';
import './styles/global.css';

/** In development, `?inspect` sends every actor to the Stately inspector. */
async function devInspector(): Promise<ActorOptions<AnyActorLogic>['inspect']> {
  if (!import.meta.env.DEV || !new URLSearchParams(location.search).has('inspect')) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return createBrowserInspector().inspect;
}

async function start() {
  listenForInstallOffers();
  // React DOM is evaluated in a task of its own, while the catalog loads: with the entry's in one, it made a long
  // task of 40-65 ms on every first load. index.html preloads it (vite.config.ts, preloadReactDom).
  const reactDom = import('react-dom/client');
  const route = routeAt(location.pathname);
  // The page's code downloads beside the language catalog instead of after it.
  void route?.load().catch(() => undefined);
  const actors = createActorsLoader(async () => {
    const [{ createAppActors }, inspect] = await Promise.all([import('./create-actors'), devInspector()]);
    return createAppActors(inspect);
  });
  if (route?.shareView) {
    // The actors after the whole catalog: the install and update prompts come with them, and their words are not
    // in the visitor's catalog.
    whenSettled(() => {
      void loadWholeCatalog()
        .catch(() => undefined)
        .then(() => actors.load())
        .catch(() => undefined);
    });
  } else void actors.load().catch(() => undefined);

  // The session's credentials: the auth machine's once it runs, the stored ones before (the same at its start).
  configureApiClient({
    credentials: () => {
      const { adminToken, apiKey } = actors.current()?.auth.getSnapshot().context ?? readStoredCredentials();
      return { adminToken, apiKey };
    },
    language: () => i18n.locale,
    onAdminTokenExpired: () => void actors.load().then(({ auth }) => auth.send({ type: 'auth.adminTokenExpired' })),
    onApiKeyInvalid: () => void actors.load().then(({ auth }) => auth.send({ type: 'auth.apiKeyInvalid' })),
  });

  const locale = initialLocale();
  // A share's page renders with its visitor's catalog, the whole one loads once it has settled.
  const [{ createRoot }] = await Promise.all([reactDom, activateLocale(locale, { visitorOf: route?.shareView })]);
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  // A transition: React renders the first screen in slices that yield to the browser, not in one long task.
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <App actors={actors} />
      </StrictMode>,
    ),
  );
}

void start();
