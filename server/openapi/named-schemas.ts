import { apiKeySchema, createdApiKeySchema } from '../../contract/api-keys';
import { envelopeSchema, errorDataSchema } from '../../contract/envelope';
import { fileShareSchema } from '../../contract/files';
import { publicFileSchema } from '../../contract/public-file';
import { fsBatchResultSchema, fsClientCopySchema, fsEntrySchema, fsItemSchema, fsListingSchema, fsUploadResultSchema } from '../../contract/fs';
import { offsetPaginationSchema, pagePaginationSchema } from '../../contract/lists';
import { mountSchema } from '../../contract/mounts';
import { pasteDetailSchema, pasteSummarySchema } from '../../contract/pastes';
import { publicPasteSchema } from '../../contract/public-paste';
import { storageConfigSchema } from '../../contract/storage';

/**
 * Contract schemas that get a name under `components.schemas`: wherever the converter meets one of these objects it
 * writes a `$ref`, so a record shape is described once and shown by name on the reference page.
 */
export const NAMED_SCHEMAS = {
  ErrorEnvelope: envelopeSchema(errorDataSchema),
  ErrorData: errorDataSchema,
  PasteSummary: pasteSummarySchema,
  PasteDetail: pasteDetailSchema,
  PublicPaste: publicPasteSchema,
  FileShare: fileShareSchema,
  PublicFile: publicFileSchema,
  PagePagination: pagePaginationSchema,
  OffsetPagination: offsetPaginationSchema,
  ApiKey: apiKeySchema,
  CreatedApiKey: createdApiKeySchema,
  StorageConfig: storageConfigSchema,
  Mount: mountSchema,
  FsItem: fsItemSchema,
  FsListing: fsListingSchema,
  FsEntry: fsEntrySchema,
  FsBatchResult: fsBatchResultSchema,
  FsUploadResult: fsUploadResultSchema,
  FsClientCopy: fsClientCopySchema,
};
