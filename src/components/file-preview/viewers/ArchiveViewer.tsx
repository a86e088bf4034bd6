import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { formatBytes } from '../../../lib/format';
import { Button } from '../../Button';
import { PageSkeleton } from '../../PageSkeleton';
import { ARCHIVE_MAX_BYTES } from './fetch-bytes';
import { openZip, type ArchiveEntry } from './archive-reader';
import { EntryPreview } from './EntryPreview';
import type { ViewerProps } from './types';
import { useLoaded } from './use-loaded';
import { ViewerFailure } from './ViewerFailure';
import styles from './Viewer.module.css';

/** Entries listed at most; a larger archive says how many more it holds. */
const MAX_LISTED = 2000;

/** An archive's files, each openable in the page: a zip read in parts (Range), 7z and tar read whole. */
export default function ArchiveViewer({ src, downloadUrl, filename, format }: ViewerProps & { format: 'zip' | 'archive' }) {
  const { t } = useLingui();
  const [opened, setOpened] = useState<ArchiveEntry>();
  const loaded = useLoaded(src, (signal) =>
    format === 'zip' ? openZip(src) : import('./whole-archive').then((module) => module.openWholeArchive(src, filename, signal)),
  );
  useEffect(() => {
    if (loaded.status !== 'ready') return;
    setOpened(undefined);
    return () => loaded.data.close();
  }, [loaded]);

  if (loaded.status === 'error') return <ViewerFailure error={loaded.error} downloadUrl={downloadUrl} />;
  if (loaded.status === 'loading') return <PageSkeleton lines={8} />;
  const { entries } = loaded.data;
  return (
    <div>
      {format === 'archive' && <p className={styles.note}>{t`This kind of archive is read whole in the browser (up to ${formatBytes(ARCHIVE_MAX_BYTES)}).`}</p>}
      {entries.length === 0 ? (
        <p className={styles.note}>{t`The archive is empty.`}</p>
      ) : (
        <ul className={styles.entries} aria-label={t`Files in ${filename}`}>
          {entries.slice(0, MAX_LISTED).map((entry) => (
            <li key={entry.path}>
              <span className={styles.entryName}>{entry.path}</span>
              <span className={styles.entrySize}>{formatBytes(entry.size)}</span>
              <Button size="small" aria-label={t`Open ${entry.path}`} aria-pressed={opened === entry} onClick={() => setOpened(entry)}>
                {t`Open`}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {entries.length > MAX_LISTED && <p className={styles.note}>{t`And ${entries.length - MAX_LISTED} more files: download the archive for all of them.`}</p>}
      {opened && <EntryPreview key={opened.path} entry={opened} />}
    </div>
  );
}
