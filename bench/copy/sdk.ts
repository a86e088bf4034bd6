import { Worker } from 'node:worker_threads';
import type { SdkCopyAnswer, SdkCopyJob, SdkCopySetup } from './sdk-thread';

/** The reference copier: a worker thread running @aws-sdk/lib-storage (see sdk-thread.ts), kept warm across jobs. */
export class SdkCopier {
  private readonly thread: Worker;
  private failure: Error | undefined;

  constructor(setup: SdkCopySetup) {
    // The thread runs the TypeScript file through tsx, registered in the thread itself.
    const script = JSON.stringify(new URL('./sdk-thread.ts', import.meta.url).href);
    this.thread = new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${script}); })`, { eval: true, workerData: setup });
    this.thread.on('error', (error) => (this.failure = error));
  }

  /** Copies the files one after another; resolves with the seconds it took. */
  copy(job: SdkCopyJob): Promise<number> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      const fail = (error: Error) => reject(error);
      this.thread.once('error', fail);
      this.thread.once('message', (answer: SdkCopyAnswer) => {
        this.thread.off('error', fail);
        if ('error' in answer) reject(new Error(`SDK copy failed: ${answer.error}`));
        else resolve(answer.seconds);
      });
      this.thread.postMessage(job);
    });
  }

  close(): Promise<number> {
    return this.thread.terminate();
  }
}
