/** Saves a blob under a file name through a temporary link. */
export function downloadBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  downloadUrl(url, filename);
  // Let the download start before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadUrl(url: string, filename: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** A file name from a title: no path separators or control characters, never empty. */
export function safeFilename(title: string, extension: string): string {
  const printable = [...title].filter((char) => char.charCodeAt(0) >= 32).join('');
  const base = printable.replace(/[\\/:*?"<>|]+/g, ' ').trim().slice(0, 80) || 'clipstash';
  return `${base}.${extension}`;
}
