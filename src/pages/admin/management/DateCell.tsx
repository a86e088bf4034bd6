import { useLingui } from '@lingui/react/macro';
import { formatDateTime } from '../../../lib/format';
import { formatShortDateTime } from '../../../lib/format-short';
import { ShortText } from './ShortText';

/** A date that fits one table cell: the short form shown, the full date and time on hover and to screen readers. */
export function DateCell({ iso }: { iso: string }) {
  const { i18n } = useLingui();
  return (
    <time dateTime={iso}>
      <ShortText short={formatShortDateTime(iso, i18n.locale)} full={formatDateTime(iso, i18n.locale)} />
    </time>
  );
}
