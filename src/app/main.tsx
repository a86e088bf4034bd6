import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { ActorOptions, AnyActorLogic } from 'xstate';
import { activateLocale, initialLocale } from '../lib/i18n';
import { createAppActors } from './actors';
import { App } from './App';
import './styles/global.css';

/** In development, `?inspect` sends every actor to the Stately inspector. */
async function devInspector(): Promise<ActorOptions<AnyActorLogic>['inspect']> {
  if (!import.meta.env.DEV || !new URLSearchParams(location.search).has('inspect')) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return createBrowserInspector().inspect;
}

async function start() {
  const [inspect] = await Promise.all([devInspector(), activateLocale(initialLocale())]);
  const actors = createAppActors(inspect);
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  createRoot(root).render(
    <StrictMode>
      <App actors={actors} />
    </StrictMode>,
  );
}

void start();
