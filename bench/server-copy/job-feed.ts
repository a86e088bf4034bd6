import { isJobEnded, type Job, type LiveEvent } from '../../contract/jobs';

/**
 * The jobs' event stream (`GET /api/admin/jobs/events`), as the browser's task manager follows a job: the bench
 * learns a job's end from it rather than reading the record every few milliseconds, whose requests (50 a second,
 * each an authenticated read on the server) cost both processes CPU that the copy competes for on a small machine.
 */
export class JobFeed {
  private readonly ended = new Map<string, Job>();
  private readonly waiting = new Map<string, (job: Job) => void>();
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly reading: Promise<void>;

  private constructor(body: ReadableStream<Uint8Array>, snapshot: () => void) {
    this.reader = body.getReader();
    this.reading = this.read(snapshot);
  }

  /** Opens the stream; resolves once its snapshot came, so that no later change is missed. */
  static async open(baseUrl: string, token: string): Promise<JobFeed> {
    const answer = await fetch(`${baseUrl}/api/admin/jobs/events`, { headers: { Authorization: `Bearer ${token}` } });
    if (answer.status !== 200 || !answer.body) throw new Error(`the job events answered ${answer.status}`);
    let snapshot!: () => void;
    const snapshotCame = new Promise<void>((resolve) => (snapshot = resolve));
    const feed = new JobFeed(answer.body, snapshot);
    await Promise.race([snapshotCame, feed.reading.then(() => Promise.reject(new Error('the job events ended before their snapshot')))]);
    return feed;
  }

  /** The job as the event that ended it told it. */
  untilEnded(id: string): Promise<Job> {
    const job = this.ended.get(id);
    if (job) return Promise.resolve(job);
    return new Promise<Job>((resolve, reject) => {
      this.waiting.set(id, resolve);
      this.reading.then(() => reject(new Error(`the job events ended before job ${id} did`)), reject);
    });
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
    await this.reading.catch(() => undefined);
  }

  private seen(job: Job) {
    if (!isJobEnded(job.status)) return;
    this.ended.set(job.id, job);
    this.waiting.get(job.id)?.(job);
  }

  private async read(snapshot: () => void) {
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await this.reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const event = JSON.parse(data) as LiveEvent;
        if (event.type === 'snapshot') {
          event.jobs.forEach((job) => this.seen(job));
          snapshot();
        } else if (event.type === 'job') this.seen(event.job);
      }
    }
  }
}
