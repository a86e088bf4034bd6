import { useLingui } from '@lingui/react/macro';
import { getMaxUploadSizeMb } from '../../lib/api/system';
import { formatBytes } from '../../lib/format';
import { useResource } from '../../lib/use-resource';

/**
 * The server's max upload size, and the message for a file over it: checked before anything is sent, so that a
 * too-large file is refused at once rather than after a long transfer.
 */
export function useUploadLimit() {
  const { t } = useLingui();
  const maxSize = useResource(getMaxUploadSizeMb);
  const limitBytes = maxSize.data !== undefined ? maxSize.data * 1024 * 1024 : undefined;
  return {
    limitBytes,
    /** Why `name` (of `size` bytes; null when unknown) cannot be uploaded, or undefined when it can. */
    problem(name: string, size: number | null): string | undefined {
      if (limitBytes === undefined || size === null || size <= limitBytes) return undefined;
      return t`${name} is ${formatBytes(size)}, over the ${formatBytes(limitBytes)} upload limit`;
    },
  };
}
