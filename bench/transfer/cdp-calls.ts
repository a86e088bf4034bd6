/** A DevTools protocol answer: to the call with `id`, with its result or its error. */
export interface CdpAnswer {
  id?: number;
  result?: unknown;
  error?: { message: string };
}

/** The calls of one DevTools connection that wait for their answer, by id. */
export class CdpCalls {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  /** Sends a call (`send` writes it with the id it is given) and resolves with its answer's result. */
  call<T>(send: (id: number) => void): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      send(id);
    });
  }

  /** Settles the call `answer` is for; false when it answers none (an event). */
  answer(answer: CdpAnswer): boolean {
    const waiter = answer.id === undefined ? undefined : this.waiting.get(answer.id);
    if (!waiter || answer.id === undefined) return false;
    this.waiting.delete(answer.id);
    if (answer.error) waiter.reject(new Error(answer.error.message));
    else waiter.resolve(answer.result);
    return true;
  }

  /** Fails every call still waiting. */
  failAll(error: Error) {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
