import { useLingui } from '@lingui/react/macro';
import { useEffect, useMemo } from 'react';
import { formatBytes } from '../../../lib/format';
import { TEXT_PREVIEW_MAX_BYTES } from '../../../lib/api/file-reads';
import { PageSkeleton } from '../../PageSkeleton';
import { extensionOf, previewKind } from '../preview-kind';
import previewStyles from '../FilePreview.module.css';
import type { ArchiveEntry } from './archive-reader';
import { ENTRY_MAX_BYTES } from './fetch-bytes';
import { useLoaded } from './use-loaded';
import styles from './Viewer.module.css';

/** An archive's entries have names but no types: images are known by their extension (SVG needs its type). */
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif', bmp: 'image/bmp',
  svg: 'image/svg+xml', ico: 'image/x-icon',
};

type Shown = { kind: 'image'; blob: Blob } | { kind: 'text'; text: string; truncated: boolean };

/** One file of an archive, read from it and shown as text or as an image (never as a page: HTML shows as text). */
export function EntryPreview({ entry }: { entry: ArchiveEntry }) {
  const { t } = useLingui();
  const name = entry.path.split('/').pop() ?? entry.path;
  const imageType = IMAGE_TYPES[extensionOf(name)];
  const kind = previewKind(imageType ?? '', name);
  const showable = kind === 'image' || kind === 'text' || kind === 'markdown' || kind === 'html';
  const tooLarge = entry.size > ENTRY_MAX_BYTES;
  const loaded = useLoaded(entry.path, async (): Promise<Shown | undefined> => {
    if (!showable || tooLarge || entry.encrypted) return undefined;
    const blob = await entry.read();
    if (kind === 'image') return { kind, blob: new Blob([blob], { type: imageType }) };
    return { kind: 'text', text: await blob.slice(0, TEXT_PREVIEW_MAX_BYTES).text(), truncated: blob.size > TEXT_PREVIEW_MAX_BYTES };
  });
  const imageUrl = useMemo(() => (loaded.status === 'ready' && loaded.data?.kind === 'image' ? URL.createObjectURL(loaded.data.blob) : undefined), [loaded]);
  useEffect(
    () => () => {
      if (imageUrl) URL.revokeObjectURL(imageUrl);
    },
    [imageUrl],
  );

  const body = () => {
    if (entry.encrypted) return <p className={styles.note}>{t`This file is encrypted: download the archive and open it with its password.`}</p>;
    if (!showable) return <p className={styles.note}>{t`No preview for this type. Download the archive to open it.`}</p>;
    if (tooLarge) return <p className={styles.note}>{t`This file is larger than ${formatBytes(ENTRY_MAX_BYTES)}: download the archive to open it.`}</p>;
    if (loaded.status === 'error') return <p className="form-error">{t`The file could not be read from the archive: it may be damaged.`}</p>;
    if (loaded.status === 'loading' || !loaded.data) return <PageSkeleton lines={4} />;
    if (loaded.data.kind === 'image') return <img className={previewStyles.media} src={imageUrl} alt={name} />;
    return (
      <>
        <pre className={previewStyles.textBox} aria-label={t`Contents of ${name}`} tabIndex={0}>
          {loaded.data.text}
        </pre>
        {loaded.data.truncated && <p className={styles.note}>{t`Only the first megabyte is shown. Download the file for all of it.`}</p>}
      </>
    );
  };
  return (
    <section className={styles.entryView} aria-label={t`Preview of ${entry.path}`}>
      <h3>{entry.path}</h3>
      {body()}
    </section>
  );
}
