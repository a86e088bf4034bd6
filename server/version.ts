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
const commit = process.env.GIT_COMMIT ?? gitCommit();

export const APP_VERSION: VersionInfo = { version: pkg.version, ...(commit && { commit }) };
