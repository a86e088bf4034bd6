import { lazy, Suspense, type ReactNode } from 'react';
import { PageSkeleton } from '../../PageSkeleton';
import type { DocumentKind } from '../preview-kind';
import OnlineViewers from './OnlineViewers';
import type { ViewerProps } from './types';

// Each viewer is a chunk of its own, with its library: a zip's page loads no Word renderer.
const DocxViewer = lazy(() => import('./DocxViewer'));
const PptxViewer = lazy(() => import('./PptxViewer'));
const SheetViewer = lazy(() => import('./SheetViewer'));
const OdtViewer = lazy(() => import('./OdtViewer'));
const EpubViewer = lazy(() => import('./EpubViewer'));
const ArchiveViewer = lazy(() => import('./ArchiveViewer'));

/** Office formats the online viewers can open too, when the admin allows them. */
const OFFICE_KINDS = new Set<DocumentKind | 'office'>(['docx', 'xlsx', 'pptx', 'odt', 'ods']);

/**
 * The in-browser viewer of a document, book or archive (`office`: a format only the online viewers open); loaded
 * by FilePreview only when a file needs it.
 */
export default function DocumentPreview({ kind, ...viewer }: ViewerProps & { kind: DocumentKind | 'office' }) {
  const viewers: Record<DocumentKind, ReactNode> = {
    docx: <DocxViewer {...viewer} />,
    pptx: <PptxViewer {...viewer} />,
    xlsx: <SheetViewer {...viewer} format="xlsx" />,
    ods: <SheetViewer {...viewer} format="ods" />,
    odt: <OdtViewer {...viewer} />,
    epub: <EpubViewer {...viewer} />,
    zip: <ArchiveViewer {...viewer} format="zip" />,
    archive: <ArchiveViewer {...viewer} format="archive" />,
  };
  if (kind === 'office') return <OnlineViewers downloadUrl={viewer.downloadUrl} alone />;
  return (
    <Suspense fallback={<PageSkeleton lines={8} />}>
      {viewers[kind]}
      {OFFICE_KINDS.has(kind) && <OnlineViewers downloadUrl={viewer.downloadUrl} alone={false} />}
    </Suspense>
  );
}
