import { useLingui } from '@lingui/react/macro';
import { PageSkeleton } from '../../PageSkeleton';
import { DOCUMENT_MAX_BYTES, fetchBytes } from './fetch-bytes';
import { odtBlocks, readOdfContent } from './odf';
import type { ViewerProps } from './types';
import { useLoaded } from './use-loaded';
import { ViewerFailure } from './ViewerFailure';
import styles from './Viewer.module.css';

/** An OpenDocument text's words: headings and paragraphs as React text, so nothing in the file is markup here. */
export default function OdtViewer({ src, downloadUrl, filename }: ViewerProps) {
  const { t } = useLingui();
  const loaded = useLoaded(src, async (signal) => odtBlocks(await readOdfContent(new Blob([await fetchBytes(src, DOCUMENT_MAX_BYTES, signal)]))));
  if (loaded.status === 'error') return <ViewerFailure error={loaded.error} downloadUrl={downloadUrl} />;
  if (loaded.status === 'loading') return <PageSkeleton lines={8} />;
  return (
    <div className={styles.textDocument} role="document" aria-label={t`Document ${filename}`} tabIndex={0}>
      {loaded.data.map((block, index) =>
        block.kind === 'heading' ? (
          <p key={index} role="heading" aria-level={Math.min(6, block.level + 2)}>
            <strong>{block.text}</strong>
          </p>
        ) : (
          <p key={index}>{block.text}</p>
        ),
      )}
      {loaded.data.length === 0 && <p className={styles.note}>{t`The document has no text.`}</p>}
    </div>
  );
}
