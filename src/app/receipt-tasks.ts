import type { TaskInput } from '../../machines/task.machine';

/** The task that uploads `file` as a receipt of the claim `claimId` (the runner hands it to the receipt pipeline). */
export function receiptUploadTask(claimId: string, file: File): TaskInput {
  return { id: crypto.randomUUID(), type: 'upload', label: file.name, payload: { kind: 'receiptUpload', claimId, file } };
}
