import { assertSafeKey } from '../driver';
import { PARTIAL_PREFIX, type RemoteContext } from './context';
import type { RemoteEntry } from './remote-fs';
import { log } from '../../observability/log';

const CONTROL = /\p{Cc}/u;

/**
 * Whether a name a server listed can be one segment of a key: not empty, `.` or `..`, no separator or control
 * character, and a key with it stays a safe key. A hostile or broken server cannot lead a key out of the base.
 */
function isSafeName(name: string, keyOf: (name: string) => string): boolean {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\\') || CONTROL.test(name)) return false;
  try {
    assertSafeKey(keyOf(name));
    return true;
  } catch {
    return false;
  }
}

/**
 * The entries of a listing fit for keys, writes in progress left out. Unfit ones are logged (the name escaped, the
 * folder as a key: no credential or server address) and skipped.
 */
export function usableEntries(context: RemoteContext, folder: string, entries: RemoteEntry[], keyOf: (name: string) => string): RemoteEntry[] {
  return entries.filter((entry) => {
    if (entry.name.startsWith(PARTIAL_PREFIX)) return false;
    if (isSafeName(entry.name, keyOf)) return true;
    log.warn(`${context.type} storage ${context.configId}: left out an entry named ${JSON.stringify(entry.name)} in folder ${JSON.stringify(folder)}`);
    return false;
  });
}
