import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { uploadMimeType, type DirectUpload, type FileShare } from '../../../contract/files';
import { mimeTypeOf } from '../../../contract/mime';
import { isStrippablePhoto } from '../../../contract/image-metadata';
import type { AppDeps, Principal } from '../../context';
import { ApiError, badInput } from '../../errors';
import { putWithinBudget } from '../../forms/budgeted-put';
import { receiveForm, type FormFile } from '../../forms/receive-form';
import { UnsafeKeyError } from '../../storage/driver';
import { cleanContentType } from '../../storage/http-headers';
import { cleanFilename, shareObjectKey } from '../../storage/keys';
import { reasonOf } from '../../storage/reason';
import { driverFor, keyFolderOf } from '../../storage/registry';
import { metadataStripOf, withoutMetadata } from './image-privacy';
import { recordStoredFile, shareOptionsFromForm, type StoredObject } from './records';
import { assertSlugFree } from '../shares/slugs';
import { readSettings } from '../settings/settings';
import { resolveUploadConfig } from '../storages/configs';
import { assertFits, byteBudget, uploadLimits } from '../storages/upload-limits';

/** Where form files wait while fields that place them are still to come. */
export const stagingDirOf = (deps: AppDeps) => join(deps.config.dataDir, 'staging');

/** Fields that choose where the bytes go: when they come after the file, it is staged on disk first. */
const PLACEMENT_FIELDS = ['s3_config_id', 'path'];

/**
 * `POST /api/upload`: the multipart form is parsed as it arrives, fields in any order (see receiveForm). The
 * file streams into storage within the max upload size and the quota; past either the partial object is
 * removed and the answer is a 413 with the file's size.
 */
export async function receiveFormUpload(
  deps: AppDeps,
  principal: Principal,
  request: Request,
  onFile: (filename: string) => void = () => undefined,
): Promise<FileShare> {
  const { max_upload_size, strip_image_location } = await readSettings(deps.db);
  const { fields, stored } = await receiveForm(request, {
    placementFields: PLACEMENT_FIELDS,
    stagingDir: stagingDirOf(deps),
    stagingLimit: Math.floor(max_upload_size * 1024 * 1024),
    tooLarge: (seen) => {
      assertFits(seen, { maxUploadBytes: Math.floor(max_upload_size * 1024 * 1024) });
      return new ApiError(413, 'body_too_large', { limit: String(seen) });
    },
    store: (formFields, file) => {
      onFile(cleanFilename(file.filename));
      return storeFilePart(deps, principal, formFields, file, strip_image_location);
    },
    discard: (object) => driverFor(deps, object.config).delete(object.key),
  });
  return recordOrDiscard(deps, principal, stored, fields);
}

/**
 * `PUT /api/upload-direct/{filename}`, CloudPaste's one-request upload for scripts: the body is the file and the
 * share options come as the query's fields. The bytes take the form upload's way, with its limits. As in
 * CloudPaste, the type comes from the name (unless `mimetype` says it): `curl --data-binary` would send a form's.
 */
export async function receiveDirectUpload(
  deps: AppDeps,
  principal: Principal,
  filename: string,
  query: Record<string, string | undefined>,
  request: Request,
): Promise<FileShare> {
  const fields = Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const stream = request.body ? Readable.fromWeb(request.body as WebReadableStream<Uint8Array>) : Readable.from([]);
  const { strip_image_location } = await readSettings(deps.db);
  const file: FormFile = { filename, mimeType: fields.mimetype || mimeTypeOf(cleanFilename(filename)), stream };
  const stored = await storeFilePart(deps, principal, fields, file, strip_image_location);
  return recordOrDiscard(deps, principal, stored, fields);
}

/** What `PUT /api/upload-direct/{filename}` answers: the share, with the names CloudPaste's answer has beside ours. */
export function directUploadAnswer(share: FileShare, baseUrl: string): DirectUpload {
  return {
    ...share,
    requires_password: share.hasPassword,
    max_views: share.maxViews > 0 ? share.maxViews : null,
    expires_at: share.expiresAt,
    previewUrl: `${baseUrl}/api/file-view/${encodeURIComponent(share.slug)}`,
    downloadUrl: `${baseUrl}/api/file-download/${encodeURIComponent(share.slug)}`,
  };
}

/** The share record of stored bytes; when it cannot be made, the bytes are removed so that nothing is left half-made. */
async function recordOrDiscard(deps: AppDeps, principal: Principal, stored: StoredObject, fields: Record<string, string>): Promise<FileShare> {
  try {
    return await recordStoredFile(deps, principal, stored, shareOptionsFromForm(fields));
  } catch (error) {
    await driverFor(deps, stored.config).delete(stored.key).catch(() => undefined);
    throw error;
  }
}

/** Everything of one file part: checks that need no bytes first, then the bytes into storage. */
async function storeFilePart(
  deps: AppDeps,
  principal: Principal,
  fields: Record<string, string>,
  file: FormFile,
  stripLocationSetting: boolean,
): Promise<StoredObject> {
  try {
    const config = await resolveUploadConfig(deps, principal, fields.s3_config_id || undefined);
    const limits = await uploadLimits(deps, config);
    // Refuse early what can be refused early: a bad or taken slug, a bad folder.
    const options = shareOptionsFromForm(fields);
    if (options.slug !== undefined) await assertSlugFree(deps.db, 'files', options.slug);
    const filename = cleanFilename(file.filename);
    const mimetype = cleanContentType(fields.mimetype || uploadMimeType(filename, file.mimeType === 'application/octet-stream' ? '' : file.mimeType));
    const key = shareObjectKey(keyFolderOf(config), fields.path, filename);
    const budget = byteBudget(limits);
    const strip = isStrippablePhoto(filename, mimetype) ? metadataStripOf(fields.strip_metadata, stripLocationSetting) : undefined;
    const body = strip ? withoutMetadata(file.stream, strip) : file.stream;
    const outcome = await putWithinBudget(driverFor(deps, config), key, body, mimetype, budget);
    if (outcome.kind === 'over_budget') {
      assertFits(outcome.seen, limits);
      throw new ApiError(413, 'body_too_large', { limit: String(budget) });
    }
    if (outcome.kind === 'failed') {
      if (outcome.error instanceof UnsafeKeyError) throw badInput('path', 'invalid_path');
      throw new ApiError(502, 'storage_unavailable', { reason: reasonOf(outcome.error) });
    }
    return { config, key, filename, mimetype, size: outcome.head.size, etag: outcome.head.etag };
  } catch (error) {
    // Whatever went wrong, the rest of the part is read (and dropped) so the form can end and be answered.
    file.stream.resume();
    throw error;
  }
}
