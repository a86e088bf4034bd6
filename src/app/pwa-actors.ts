import { i18n } from '@lingui/core';
import { createActor, fromCallback, fromPromise, type Actor, type ActorOptions, type AnyActorLogic } from 'xstate';
import type { authMachine } from '../../machines/auth.machine';
import { connectivityMachine, type ConnectivityEvent } from '../../machines/connectivity.machine';
import { installPromptMachine, type InstallPromptEvent } from '../../machines/install-prompt.machine';
import { updatePromptMachine, type UpdatePromptEvent } from '../../machines/update-prompt.machine';
import { activateLocale, initialLocale } from '../lib/i18n';
import { whenSettled } from '../lib/idle';
import { promptInstall, runsInstalled, watchInstallOffers } from '../lib/install';
import { offlineCache } from '../lib/offline-cache';
import { localStore, STORAGE_KEYS } from '../lib/storage';

/**
 * Preferences may have changed while offline (another tab), or a language switch may have failed for want of the
 * network: apply the stored ones again.
 */
function reloadPreferences() {
  const locale = initialLocale();
  if (locale !== i18n.locale) void activateLocale(locale).catch(() => undefined);
}

function storedDismissal(): number | undefined {
  const raw = Number(localStore.get(STORAGE_KEYS.installPromptDismissedAt));
  return Number.isFinite(raw) && raw > 0 ? raw : undefined;
}

/**
 * A shared computer: what a signed-in user was answered must not stay in the offline cache after the session ends
 * (a sign-out, an expired token, a revoked key), nor after one that ended where this page did not see it (another
 * tab, a page closed first): a page that starts signed out forgets them once it has settled.
 */
function forgetSignedInAnswersAtSignOut(auth: Actor<typeof authMachine>) {
  const signedIn = () => Boolean(auth.getSnapshot().context.adminToken || auth.getSnapshot().context.apiKey);
  let wasSignedIn = signedIn();
  if (!wasSignedIn) whenSettled(() => void (signedIn() ? undefined : offlineCache.forgetSignedIn()));
  auth.subscribe(() => {
    const now = signedIn();
    if (wasSignedIn && !now) void offlineCache.forgetSignedIn();
    wasSignedIn = now;
  });
}

/** The service-worker client (workbox-window): no part of a first load. */
const serviceWorkerClient = () => import('../lib/service-worker');

/** The installable-app actors (connectivity, install prompt, update prompt) with their browser side effects. */
export function createPwaActors(auth: Actor<typeof authMachine>, inspect?: ActorOptions<AnyActorLogic>['inspect']) {
  forgetSignedInAnswersAtSignOut(auth);

  const connectivity = createActor(
    connectivityMachine.provide({
      actions: { reloadPreferences },
      actors: {
        browserConnectivity: fromCallback<ConnectivityEvent>(({ sendBack }) => {
          const online = () => sendBack({ type: 'connectivity.online' });
          const offline = () => sendBack({ type: 'connectivity.offline' });
          window.addEventListener('online', online);
          window.addEventListener('offline', offline);
          return () => {
            window.removeEventListener('online', online);
            window.removeEventListener('offline', offline);
          };
        }),
      },
    }),
    { input: { online: navigator.onLine }, inspect },
  );

  const installPrompt = createActor(
    installPromptMachine.provide({
      actions: {
        persistDismissal: (_, { at }) => localStore.set(STORAGE_KEYS.installPromptDismissedAt, String(at)),
      },
      actors: {
        browserInstall: fromCallback<InstallPromptEvent>(({ sendBack }) => {
          const stopWatching = watchInstallOffers({
            onOffered: () => sendBack({ type: 'install.offered' }),
            onInstalled: () => sendBack({ type: 'install.completed' }),
          });
          // The first click, tap or key press on the site counts as engagement.
          const engaged = () => {
            sendBack({ type: 'user.engaged' });
            stopEngagement();
          };
          const stopEngagement = () => {
            removeEventListener('pointerdown', engaged, true);
            removeEventListener('keydown', engaged, true);
          };
          addEventListener('pointerdown', engaged, true);
          addEventListener('keydown', engaged, true);
          return () => {
            stopWatching();
            stopEngagement();
          };
        }),
        promptInstall: fromPromise(() => promptInstall()),
      },
    }),
    { input: { dismissedAt: storedDismissal(), installed: runsInstalled() }, inspect },
  );

  const updatePrompt = createActor(
    updatePromptMachine.provide({
      actions: {
        skipWaiting: () => void serviceWorkerClient().then(({ skipWaiting }) => skipWaiting()),
        reload: () => window.location.reload(),
      },
      actors: {
        // Registered once the page has settled: the worker's precache downloads must not compete with a first load.
        serviceWorker: fromCallback<UpdatePromptEvent>(({ sendBack }) => {
          let stopped = false;
          let stop = () => {
            stopped = true;
          };
          whenSettled(() =>
            void serviceWorkerClient().then(
              ({ registerServiceWorker }) => {
                if (stopped) return;
                stop = registerServiceWorker({
                  onUpdateReady: () => sendBack({ type: 'update.ready' }),
                  onControllerChange: () => sendBack({ type: 'update.activated' }),
                });
              },
              (error: unknown) => console.warn('Service worker registration failed', error),
            ),
          );
          return () => stop();
        }),
      },
    }),
    { inspect },
  );

  connectivity.start();
  installPrompt.start();
  updatePrompt.start();
  return { connectivity, installPrompt, updatePrompt };
}
