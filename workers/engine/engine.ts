import type { FileShare } from '../../contract/files';
import type { EngineEvent, FileShareUpload, TransferError } from '../../contract/transfer';
import { presignedUpload } from '../pipelines/presigned-upload';

/**
 * The engine facade the page talks to through Comlink. Every task runs under its own AbortController, so a
 * cancel aborts the request in flight at once.
 */
export class TransferEngine {
  private readonly running = new Map<string, AbortController>();

  async uploadFile(command: FileShareUpload, onEvent: (event: EngineEvent) => void): Promise<FileShare> {
    return this.run(command.taskId, (signal) => presignedUpload(command, { signal, emit: onEvent }));
  }

  cancel(taskId: string): void {
    this.running.get(taskId)?.abort();
  }

  private async run<T>(taskId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.running.set(taskId, controller);
    try {
      return await work(controller.signal);
    } catch (error) {
      // Whatever failed last, a cancelled task reports `cancelled`.
      if (controller.signal.aborted) throw { code: 'cancelled' } satisfies TransferError;
      throw error;
    } finally {
      this.running.delete(taskId);
    }
  }
}
