import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { uploadMimeType, type DirectUpload, type FileShare } from '../../../contract/files';
import { mimeTypeOf } from '../../../contract/mime';
import { isStrippablePhoto } from '../../../contract/image-metadata';
import type { AppDeps, Principal } from '../../context';
import type { DB } from '../../db/database';
import { ApiError, badInput } from '../../errors';
import { putWithinBudget } from '../../forms/budgeted-put';
import { receiveForm, type FormFile } from '../../forms/receive-form';
import { UnsafeKeyError } from '../../storage/driver';
import { cleanContentType } from '../../storage/http-headers';
import { cleanFilename, shareObjectKey } from '../../storage/keys';
import { reasonOf } from '../../storage/reason';
import { driverFor, keyFolderOf, type StorageConfigRow } from '../../storage/registry';
import { metadataStripOf, withoutMetadata } from './image-privacy';
import { recordStoredFile, shareOptionsFromForm, type ShareOptions, type StoredObject } from './records';
import { moveToName, planTakeover, removeRetired, retireShares, type Takeover } from './replacement';
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
): Promise<DirectUploaded> {
  const fields = Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const stream = request.body ? Readable.fromWeb(request.body as WebReadableStream<Uint8Array>) : Readable.from([]);
  const { strip_image_location } = await readSettings(deps.db);
  const file: FormFile = { filename, mimeType: fields.mimetype || mimeTypeOf(cleanFilename(filename)), stream };
  let takeover: Takeover | undefined;
  const place: Placement = async (config, name, options) => {
    const ask = { config, folder: fields.path, filename: name, slug: options.slug, override: fields.override === 'true', originalName: fields.original_filename === 'true' };
    takeover = await planTakeover(deps, principal, ask);
    return takeover.storeAt;
  };
  try {
    const stored = await storeFilePart(deps, principal, fields, file, strip_image_location, place);
    const { replaced, slug, nameKey } = takeover as Takeover;
    const retire = replaced.length > 0 ? (db: DB) => retireShares(db, replaced) : undefined;
    const share = await recordOrDiscard(deps, principal, stored, fields, slug, retire);
    const allGone = await removeRetired(deps, replaced);
    // The bytes wait beside the name while the share they replace still holds it.
    if (nameKey !== undefined && stored.key !== nameKey && allGone) {
      const key = await moveToName(deps, stored.config, share.id, stored.key, nameKey);
      const s3Url = driverFor(deps, stored.config).objectUrl(key);
      return { share: { ...share, storage_path: key, s3_url: s3Url }, originalName: key === nameKey };
    }
    return { share, originalName: stored.key === nameKey };
  } finally {
    await takeover?.release();
  }
}

/** A direct upload's share, and whether its object is stored under the file's own name. */
export interface DirectUploaded {
  share: FileShare;
  originalName: boolean;
}

/** What `PUT /api/upload-direct/{filename}` answers: the share, with the names CloudPaste's answer has beside ours. */
export function directUploadAnswer({ share, originalName }: DirectUploaded, baseUrl: string): DirectUpload {
  return {
    ...share,
    requires_password: share.hasPassword,
    max_views: share.maxViews > 0 ? share.maxViews : null,
    expires_at: share.expiresAt,
    previewUrl: `${baseUrl}/api/file-view/${encodeURIComponent(share.slug)}`,
    downloadUrl: `${baseUrl}/api/file-download/${encodeURIComponent(share.slug)}`,
    used_original_filename: originalName,
  };
}

/**
 * The share record of stored bytes (with `slug` when one is decided beside the fields, and `beforeInsert` in its
 * transaction); when it cannot be made, the bytes are removed so that nothing is left half-made.
 */
async function recordOrDiscard(
  deps: AppDeps,
  principal: Principal,
  stored: StoredObject,
  fields: Record<string, string>,
  slug?: string,
  beforeInsert?: (db: DB) => Promise<void>,
): Promise<FileShare> {
  try {
    const options = shareOptionsFromForm(fields);
    return await recordStoredFile(deps, principal, stored, { ...options, slug: slug ?? options.slug }, beforeInsert);
  } catch (error) {
    await driverFor(deps, stored.config).delete(stored.key).catch(() => undefined);
    throw error;
  }
}

/**
 * Where a file's bytes go in `config`, checked before any byte arrives (the slug, the folder): refuses what can be
 * refused early.
 */
type Placement = (config: StorageConfigRow, filename: string, options: ShareOptions) => Promise<string>;

/** An ordinary upload: the slug asked for must be free, and the object gets a key of its own. */
const ordinaryPlacement =
  (deps: AppDeps, folder: string | undefined): Placement =>
  async (config, filename, options) => {
    if (options.slug !== undefined) await assertSlugFree(deps.db, 'files', options.slug);
    return shareObjectKey(keyFolderOf(config), folder, filename);
  };

/** Everything of one file part: checks that need no bytes first, then the bytes into storage. */
async function storeFilePart(
  deps: AppDeps,
  principal: Principal,
  fields: Record<string, string>,
  file: FormFile,
  stripLocationSetting: boolean,
  place: Placement = ordinaryPlacement(deps, fields.path),
): Promise<StoredObject> {
  try {
    const config = await resolveUploadConfig(deps, principal, fields.s3_config_id || undefined);
    const limits = await uploadLimits(deps, config);
    const filename = cleanFilename(file.filename);
    const mimetype = cleanContentType(fields.mimetype || uploadMimeType(filename, file.mimeType === 'application/octet-stream' ? '' : file.mimeType));
    const key = await place(config, filename, shareOptionsFromForm(fields));
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
