import { buildIfStale } from '../../scripts/build-if-stale.mjs';

/** The browser tests run against the real production build. */
export default function setup() {
  buildIfStale();
}
