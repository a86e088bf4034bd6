import type { InstallOutcome } from '../../machines/install-prompt.machine';

/** Chromium's installation offer; not in TypeScript's DOM library. */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: InstallOutcome; platform: string }>;
}

export interface InstallHandlers {
  onOffered: () => void;
  onInstalled: () => void;
}

let offer: BeforeInstallPromptEvent | undefined;
const listeners = new Set<InstallHandlers>();

/**
 * Starts listening for the browser's offer; the entry calls it first thing. Chromium makes its offer once per page
 * load, soon after the load event, and the install prompt's machine comes in a chunk loaded later (on a shared
 * page, once the page has settled): an offer made before that is held here for `watchInstallOffers`.
 */
export function listenForInstallOffers() {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault(); // no mini-infobar: the app shows its own banner
    offer = event as BeforeInstallPromptEvent;
    for (const listener of listeners) listener.onOffered();
  });
  window.addEventListener('appinstalled', () => {
    offer = undefined;
    for (const listener of listeners) listener.onInstalled();
  });
}

/** Reports the browser's offers (one made earlier at once) and installs; returns the clean-up. */
export function watchInstallOffers(handlers: InstallHandlers): () => void {
  listeners.add(handlers);
  if (offer) handlers.onOffered();
  return () => void listeners.delete(handlers);
}

/** Opens the browser's install dialog with the pending offer (usable once) and resolves with the choice. */
export async function promptInstall(): Promise<InstallOutcome> {
  const pending = offer;
  offer = undefined;
  if (!pending) throw new Error('The browser has not offered installation');
  await pending.prompt();
  return (await pending.userChoice).outcome;
}

/** Running as the installed app rather than in a browser tab. */
export const runsInstalled = () =>
  window.matchMedia('(display-mode: standalone)').matches ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true;
