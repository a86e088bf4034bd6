import { useLingui } from '@lingui/react/macro';
import { BUILTIN_LOCAL_NAME, LOCAL_PROVIDER } from '../../contract/storage';

/**
 * How a storage's name is shown: the built-in local storage, still under the name it was created with, in the
 * reader's language; any name an admin gave, as given.
 */
export function useStorageName(): (name: string, provider: string) => string {
  const { t } = useLingui();
  return (name, provider) => (provider === LOCAL_PROVIDER && name === BUILTIN_LOCAL_NAME ? t`Local storage` : name);
}
