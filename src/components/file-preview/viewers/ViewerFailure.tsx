import { useLingui } from '@lingui/react/macro';
import Download from 'lucide-react/icons/download';
import { formatBytes } from '../../../lib/format';
import { LinkButton } from '../../LinkButton';
import { Notice } from '../../Notice';
import { EncryptedOfficeError, TooLargeError } from './fetch-bytes';

/** Why a viewer shows nothing, in words, with the download beside it: never a blank box. */
export function ViewerFailure({ error, downloadUrl }: { error: unknown; downloadUrl: string }) {
  const { t } = useLingui();
  const text =
    error instanceof TooLargeError
      ? t`The file is larger than ${formatBytes(error.limit)}, too large to preview in the page.`
      : error instanceof EncryptedOfficeError
        ? t`The file is password-protected: download it and open it with its password.`
        : t`The file could not be read: it may be damaged, or of a variant this preview does not know.`;
  return (
    <Notice
      level={2}
      role="alert"
      title={t`No preview`}
      actions={
        <LinkButton external href={downloadUrl}>
          <Download size={15} aria-hidden />
          {t`Download`}
        </LinkButton>
      }
    >
      {text}
    </Notice>
  );
}
