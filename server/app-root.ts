import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the app's package.json, found upwards from this module: the same answer whether the server runs
 * from its TypeScript sources (server/) or from the production bundle (dist-server/), which sit at different depths.
 */
function findAppRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error('package.json not found above the server');
    folder = parent;
  }
  return folder;
}

export const APP_ROOT = findAppRoot();
