import { t } from '@lingui/core/macro';
import type { TransferError } from '../../contract/transfer';
import { formatBytes } from './format';

const bytes = (value: unknown) => (typeof value === 'number' ? formatBytes(value) : '—');

/** The words for a transfer failure; the engine and machines only know the code. */
export function describeTransferError(error: TransferError): string {
  const data = error.data ?? {};
  switch (error.code) {
    case 'slug_taken':
      return t`Link suffix is already taken, please try another`;
    case 'quota_exceeded': {
      const size = bytes(data.fileSize);
      const remaining = bytes(data.remaining);
      const total = bytes(data.total);
      return t`Insufficient storage: the file is ${size}, ${remaining} of ${total} remain`;
    }
    case 'too_large': {
      const size = bytes(data.fileSize);
      const limit = bytes(data.maxUploadSize);
      return t`The file is ${size}, over the ${limit} upload limit`;
    }
    case 'storage_forbidden':
      return t`No permission to use this storage configuration`;
    case 'presign_failed':
      return error.serverMessage ?? t`Failed to get a presigned upload URL`;
    case 'network':
      return t`Network error, please check your connection`;
    case 'timeout':
      return t`The request timed out`;
    case 'cancelled':
      return t`Cancelled by user`;
    case 'upload_failed': {
      const status = error.status ?? 0;
      return t`The storage refused the upload (HTTP ${status})`;
    }
    case 'commit_failed':
      return error.serverMessage ?? t`The upload arrived but could not be saved`;
    case 'init_failed': {
      const reason = error.serverMessage ?? String(error.status ?? '');
      return t`Init multipart upload failed: ${reason}`;
    }
    case 'part_failed': {
      const part = error.part ?? 0;
      if (error.status !== undefined) {
        const status = error.status;
        return t`Part ${part} upload failed with HTTP status ${status}`;
      }
      return t`Part ${part} upload failed: network error`;
    }
    case 'file_mismatch':
      return t`This is not the file the upload started with: pick the same file (name, size and date must match)`;
    case 'unauthorized':
      return error.serverMessage ?? t`Unauthorised, please log in`;
    default:
      return error.serverMessage ?? t`Upload failed`;
  }
}
