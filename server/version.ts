import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { VersionInfo } from '../contract/system';
import { join } from 'node:path';
import { APP_ROOT } from './app-root';

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

const pkg = JSON.parse(readFileSync(join(APP_ROOT, 'package.json'), 'utf8')) as { version: string };

/** The package's version (package.json). */
export const APP_VERSION = pkg.version;

let info: VersionInfo | undefined;

/** The version and, when known, the commit: git is asked on first use, not by every start-up (it takes tens of ms). */
export function versionInfo(): VersionInfo {
  if (!info) {
    const commit = process.env.GIT_COMMIT ?? gitCommit();
    info = { version: APP_VERSION, ...(commit && { commit }) };
  }
  return info;
}
