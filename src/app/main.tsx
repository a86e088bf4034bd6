import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { ActorOptions, AnyActorLogic } from 'xstate';
import { activateLocale, initialLocale } from '../lib/i18n';
import { createAppActors } from './actors';
import { App } from './App';
import { preloadPage } from './routes';
import './styles/global.css';

/** In development, `?inspect` sends every actor to the Stately inspector. */
async function devInspector(): Promise<ActorOptions<AnyActorLogic>['inspect']> {
  if (!import.meta.env.DEV || !new URLSearchParams(location.search).has('inspect')) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return createBrowserInspector().inspect;
}

async function start() {
  preloadPage(location.pathname);
  const [inspect] = await Promise.all([devInspector(), activateLocale(initialLocale())]);
  const actors = createAppActors(inspect);
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
