import { useEffect, useRef, useState } from 'react';
import { PageSkeleton } from '../../PageSkeleton';
import { DOCUMENT_MAX_BYTES, EncryptedOfficeError, fetchBytes, isOleFile } from './fetch-bytes';
import { neutraliseLinks } from './safe-links';
import { useLoaded } from './use-loaded';
import { ViewerFailure } from './ViewerFailure';
import styles from './Viewer.module.css';

interface DomViewerProps {
  src: string;
  downloadUrl: string;
  label: string;
  /** Draws the Office file into `target`; answers what undoes it, if anything. */
  render: (bytes: Uint8Array<ArrayBuffer>, target: HTMLDivElement) => Promise<(() => void) | void>;
}

/**
 * An Office file (a zip of XML) downloaded whole and drawn as DOM by a library, into an element React leaves to
 * it; its links are made harmless once drawn. A password-protected file is told apart from a broken one.
 */
export function DomViewer({ src, downloadUrl, label, render }: DomViewerProps) {
  const container = useRef<HTMLDivElement>(null);
  const [rendered, setRendered] = useState<{ src: string; error?: unknown }>();
  const loaded = useLoaded(src, async (signal) => {
    const bytes = await fetchBytes(src, DOCUMENT_MAX_BYTES, signal);
    if (isOleFile(bytes)) throw new EncryptedOfficeError();
    return bytes;
  });
  const renderRef = useRef(render);
  renderRef.current = render;

  useEffect(() => {
    const target = container.current;
    if (loaded.status !== 'ready' || !target) return;
    let current = true;
    let undo: (() => void) | void;
    target.replaceChildren();
    renderRef
      .current(loaded.data, target)
      .then((cleanup) => {
        undo = cleanup;
        neutraliseLinks(target);
        if (current) setRendered({ src });
        else undo?.();
      })
      .catch((error: unknown) => current && setRendered({ src, error }));
    return () => {
      current = false;
      undo?.();
    };
  }, [loaded, src]);

  if (loaded.status === 'error') return <ViewerFailure error={loaded.error} downloadUrl={downloadUrl} />;
  if (rendered?.src === src && rendered.error !== undefined) return <ViewerFailure error={rendered.error} downloadUrl={downloadUrl} />;
  const ready = rendered?.src === src;
  return (
    <>
      {!ready && <PageSkeleton lines={8} />}
      <div ref={container} className={styles.document} hidden={!ready} role="document" aria-label={label} tabIndex={0} />
    </>
  );
}
