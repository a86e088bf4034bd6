import { isStrippablePhoto, METADATA_HEAD_BYTES, stripImageMetadata, type MetadataStrip } from '../../contract/image-metadata';

/**
 * The file as it is shared: with `strip` removed from its metadata before any byte leaves the browser, the same
 * size (so that a resumed upload's parts still match), or the file itself when there is nothing to remove. Only the
 * head is read and copied; the rest stays a slice of the user's file.
 */
export async function sharedCopyOf(file: File, strip: MetadataStrip | undefined): Promise<File> {
  if (!strip || !isStrippablePhoto(file.name, file.type)) return file;
  const head = new Uint8Array(await file.slice(0, METADATA_HEAD_BYTES).arrayBuffer());
  if (!stripImageMetadata(head, strip)) return file;
  return new File([head, file.slice(head.length)], file.name, { type: file.type, lastModified: file.lastModified });
}
