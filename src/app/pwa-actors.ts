import { i18n } from '@lingui/core';
import { createActor, fromCallback, fromPromise, type ActorOptions, type AnyActorLogic } from 'xstate';
import { connectivityMachine, type ConnectivityEvent } from '../../machines/connectivity.machine';
import { installPromptMachine, type InstallPromptEvent } from '../../machines/install-prompt.machine';
import { updatePromptMachine, type UpdatePromptEvent } from '../../machines/update-prompt.machine';
import { activateLocale, initialLocale } from '../lib/i18n';
import { promptInstall, runsInstalled, watchInstallOffers } from '../lib/install';
import { registerServiceWorker, skipWaiting } from '../lib/service-worker';
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

/** The installable-app actors (connectivity, install prompt, update prompt) with their browser side effects. */
export function createPwaActors(inspect?: ActorOptions<AnyActorLogic>['inspect']) {
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
        browserInstall: fromCallback<InstallPromptEvent>(({ sendBack }) =>
          watchInstallOffers({
            onOffered: () => sendBack({ type: 'install.offered' }),
            onInstalled: () => sendBack({ type: 'install.completed' }),
          }),
        ),
        promptInstall: fromPromise(() => promptInstall()),
      },
    }),
    { input: { dismissedAt: storedDismissal(), installed: runsInstalled() }, inspect },
  );

  const updatePrompt = createActor(
    updatePromptMachine.provide({
      actions: {
        skipWaiting: () => skipWaiting(),
        reload: () => window.location.reload(),
      },
      actors: {
        serviceWorker: fromCallback<UpdatePromptEvent>(({ sendBack }) =>
          registerServiceWorker({
            onUpdateReady: () => sendBack({ type: 'update.ready' }),
            onControllerChange: () => sendBack({ type: 'update.activated' }),
          }),
        ),
      },
    }),
    { inspect },
  );

  connectivity.start();
  installPrompt.start();
  updatePrompt.start();
  return { connectivity, installPrompt, updatePrompt };
}
