import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { THUMBNAIL_WIDTHS, type ThumbnailSize } from '../../../contract/thumbnail-sizes';
import { Notice } from '../Notice';
import { PageSkeleton } from '../PageSkeleton';
import { absoluteApiUrl, loadTextPreview } from '../../lib/api/file-reads';
import { loadWholeCatalog } from '../../lib/i18n';
import { highlightCodeBlocks } from '../../lib/markdown/highlight';
import { useResource } from '../../lib/use-resource';
import styles from './FilePreview.module.css';
import { codeLanguage, previewKind } from './preview-kind';

/** Markdown rendering and sanitising load only for a Markdown file. */
const MarkdownView = lazy(() => import('../MarkdownView').then((module) => ({ default: module.MarkdownView })));

/**
 * Documents, books and archives: a chunk that loads each viewer as a chunk of its own. Their messages are in the
 * catalog's main part, not the visitor's (a share's first load waits for that one only), so they wait for it.
 */
const DocumentPreview = lazy(() => Promise.all([import('./viewers/DocumentPreview'), loadWholeCatalog()]).then(([module]) => module));

/** What a preview needs of a file: a shared file, or a file of a mount. The URLs work without credentials. */
export interface PreviewableFile {
  filename: string;
  mimetype: string;
  previewUrl: string;
  downloadUrl: string;
  /** The server's thumbnail (a share's `file-thumbnail` link), shown instead of a whole image; `&size=` is added. */
  thumbnailUrl?: string | undefined;
}

/** Shows a file in the page when its type allows; media stream with Range requests, heavy kinds load on demand. */
export function FilePreview({ file }: { file: PreviewableFile }) {
  const { t } = useLingui();
  const src = absoluteApiUrl(file.previewUrl);
  const kind = previewKind(file.mimetype, file.filename);
  switch (kind) {
    case 'image':
      return file.thumbnailUrl ? (
        <ThumbnailImage thumbnailUrl={absoluteApiUrl(file.thumbnailUrl)} originalUrl={src} filename={file.filename} />
      ) : (
        <img className={styles.media} src={src} alt={file.filename} />
      );
    case 'video':
      return <video className={styles.media} src={src} controls preload="metadata" aria-label={file.filename} />;
    case 'audio':
      return <audio className={styles.audio} src={src} controls preload="metadata" aria-label={file.filename} />;
    case 'pdf':
      return <iframe className={styles.frame} src={src} title={t`PDF preview of ${file.filename}`} />;
    case 'html':
      // No scripts, no forms, no same-origin access: the server also sends a sandboxing CSP.
      return <iframe className={styles.frame} src={src} sandbox="" title={t`HTML preview of ${file.filename}`} />;
    case 'markdown':
    case 'text':
      return <TextPreview url={file.previewUrl} filename={file.filename} markdown={kind === 'markdown'} />;
    case 'docx':
    case 'xlsx':
    case 'ods':
    case 'pptx':
    case 'odt':
    case 'epub':
    case 'zip':
    case 'archive':
    case 'office':
      return (
        <Suspense fallback={<PageSkeleton lines={8} />}>
          <DocumentPreview kind={kind} src={src} downloadUrl={absoluteApiUrl(file.downloadUrl)} filename={file.filename} />
        </Suspense>
      );
    default:
      return (
        <Notice level={2} title={t`No preview for this type`}>
          {t`Download the file to open it.`}
        </Notice>
      );
  }
}

/**
 * A large image through its thumbnail (1280 px at most, WebP, HEIC made viewable), with a link to the original;
 * the original itself where the server made no thumbnail.
 */
function ThumbnailImage({ thumbnailUrl, originalUrl, filename }: { thumbnailUrl: string; originalUrl: string; filename: string }) {
  const { t } = useLingui();
  const [failed, setFailed] = useState(false);
  if (failed) return <img className={styles.media} src={originalUrl} alt={filename} />;
  const sized = (size: ThumbnailSize) => `${thumbnailUrl}&size=${size}`;
  return (
    <figure className={styles.figure}>
      <img
        className={styles.media}
        src={sized('large')}
        srcSet={`${sized('grid')} ${THUMBNAIL_WIDTHS.grid}w, ${sized('large')} ${THUMBNAIL_WIDTHS.large}w`}
        sizes={`(max-width: ${THUMBNAIL_WIDTHS.large}px) 100vw, ${THUMBNAIL_WIDTHS.large}px`}
        alt={filename}
        onError={() => setFailed(true)}
      />
      <figcaption>
        <a href={originalUrl} target="_blank" rel="noopener noreferrer">
          {t`Open the original image`}
        </a>
      </figcaption>
    </figure>
  );
}

function TextPreview({ url, filename, markdown }: { url: string; filename: string; markdown: boolean }) {
  const { t } = useLingui();
  const load = useCallback(() => loadTextPreview(url), [url]);
  const preview = useResource(load);
  const code = useRef<HTMLPreElement>(null);
  const language = codeLanguage(filename);
  useEffect(() => {
    if (code.current && preview.data) highlightCodeBlocks(code.current);
  }, [preview.data]);

  if (preview.status === 'error') return <p className="form-error">{t`The preview could not be loaded.`}</p>;
  if (!preview.data) return <PageSkeleton lines={6} />;
  return (
    <>
      {markdown ? (
        <Suspense fallback={<PageSkeleton lines={6} />}>
          <MarkdownView markdown={preview.data.text} className={styles.textBox} label={t`Preview`} />
        </Suspense>
      ) : (
        <pre ref={code} className={styles.textBox} aria-label={t`Preview`} tabIndex={0}>
          <code className={language ? `language-${language}` : undefined}>{preview.data.text}</code>
        </pre>
      )}
      {preview.data.truncated && <p className={styles.note}>{t`Only the first megabyte is shown. Download the file for all of it.`}</p>}
    </>
  );
}
