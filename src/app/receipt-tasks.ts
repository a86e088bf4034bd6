import type { TaskInput } from '../../machines/task.machine';

/**
 * A receipt of an expense claim, as a task of the task manager: its runner (src/app/tasks.ts) hands it to the
 * engine's receipt pipeline. `file` is absent after a reload until the user picks it again.
 */
export interface ReceiptTaskPayload {
  kind: 'receiptUpload';
  claimId: string;
  file?: File;
}

export const isReceiptPayload = (payload: unknown): payload is ReceiptTaskPayload =>
  typeof payload === 'object' && payload !== null && (payload as { kind?: unknown }).kind === 'receiptUpload';

/** The task that uploads `file` as a receipt of the claim `claimId`. */
export function receiptUploadTask(claimId: string, file: File): TaskInput {
  return { id: crypto.randomUUID(), type: 'upload', label: file.name, payload: { kind: 'receiptUpload', claimId, file } satisfies ReceiptTaskPayload };
}
