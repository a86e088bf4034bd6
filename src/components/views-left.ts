import { plural } from '@lingui/core/macro';
import { formatCount } from '../lib/format';

/** "3 views left", for the gates of pastes and files: the number written by formatCount, not Lingui's `#` (see there). */
export function viewsLeftText(left: number): string {
  const count = formatCount(left);
  return plural(left, { one: `${count} view left`, other: `${count} views left` });
}
