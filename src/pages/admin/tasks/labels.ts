import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { JobStatus, JobType, TransferKind, TransferOutcome } from '../../../../contract/jobs';

export const TRANSFER_KIND_LABELS: Record<TransferKind, MessageDescriptor> = {
  'share-upload': msg`Share upload`,
  'batch-upload': msg`Batch upload`,
  'fs-upload': msg`Upload to a mount`,
  'file-request-upload': msg`File request upload`,
  'webdav-put': msg`WebDAV upload`,
  'webdav-get': msg`WebDAV download`,
  download: msg`Download`,
};

export const OUTCOME_LABELS: Record<TransferOutcome, MessageDescriptor> = {
  running: msg`Running`,
  completed: msg`Completed`,
  failed: msg`Failed`,
  cancelled: msg`Cancelled`,
};

export const JOB_TYPE_LABELS: Record<JobType, MessageDescriptor> = {
  copy: msg`Copy`,
  move: msg`Move`,
  sync: msg`Sync`,
};

export const JOB_STATUS_LABELS: Record<JobStatus, MessageDescriptor> = {
  queued: msg`Queued`,
  running: msg`Running`,
  paused: msg`Paused`,
  completed: msg`Completed`,
  partial: msg`Partly done`,
  failed: msg`Failed`,
  cancelled: msg`Cancelled`,
};
