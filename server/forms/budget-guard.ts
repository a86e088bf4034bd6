import { Transform, type TransformCallback } from 'node:stream';

/** A body brought more bytes than its budget allowed. */
export class OverBudget extends Error {
  constructor(readonly budget: number) {
    super(`The body is larger than ${budget} bytes`);
    this.name = 'OverBudget';
  }
}

/**
 * Passes bytes on until they exceed `budget`, then fails with OverBudget: the chunk that crosses the budget is
 * not passed on, so nothing past it reaches storage.
 */
export class BudgetGuard extends Transform {
  /** Bytes that reached the guard so far, the crossing chunk included. */
  seen = 0;

  constructor(readonly budget: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.budget) done(new OverBudget(this.budget));
    else done(null, chunk);
  }
}
