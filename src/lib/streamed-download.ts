import { downloadBlob } from './download';

/** Where the service worker (src/sw.ts) answers with a stream this page handed it: `<path><id>/<file name>`. */
export const STREAMED_DOWNLOAD_PATH = '/streamed-download/';

/** How long the hidden frame that starts a download stays in the page. */
const FRAME_KEPT_MS = 60_000;

/** The message that hands the service worker a download's bytes (a transferred ReadableStream). */
export interface StreamedDownloadMessage {
  type: 'STREAMED_DOWNLOAD';
  id: string;
  filename: string;
  stream: ReadableStream<Uint8Array>;
}

/**
 * A download the browser saves to disk as the bytes come: what is written into the returned stream goes to the
 * service worker, which answers the download's request with it (`Content-Disposition: attachment`), so no more
 * than a chunk is held anywhere. Aborting the stream fails the download. A page the service worker does not
 * control (the dev server, a browser without one) collects the bytes and saves them at the end instead.
 */
export async function streamedDownload(filename: string): Promise<WritableStream<Uint8Array>> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const worker = 'serviceWorker' in navigator ? navigator.serviceWorker.controller : null;
  if (!worker) {
    new Response(readable).blob().then(
      (blob) => downloadBlob(blob, filename),
      () => undefined,
    );
    return writable;
  }
  const id = crypto.randomUUID();
  const channel = new MessageChannel();
  const received = new Promise((resolve) => (channel.port1.onmessage = resolve));
  worker.postMessage({ type: 'STREAMED_DOWNLOAD', id, filename, stream: readable } satisfies StreamedDownloadMessage, [readable, channel.port2]);
  await received;
  channel.port1.close();
  // A frame's navigation goes through the service worker of its scope (a link's download would not); once the
  // answer turns into a download, the browser owns it and the frame can go.
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.src = `${STREAMED_DOWNLOAD_PATH}${id}/${encodeURIComponent(filename)}`;
  document.body.append(frame);
  setTimeout(() => frame.remove(), FRAME_KEPT_MS);
  return writable;
}
