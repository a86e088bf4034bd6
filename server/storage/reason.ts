/** A short, readable reason from whatever a client or fetch threw. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const e = error as Error & { Code?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown };
    const status = e.$metadata?.httpStatusCode;
    const cause = e.cause instanceof Error ? ` (${e.cause.message})` : '';
    const name = e.Code ?? (e.name !== 'Error' ? e.name : '');
    const text = name && !e.message.startsWith(name) ? `${name}: ${e.message}` : e.message;
    return `${text}${cause}${status ? ` [HTTP ${status}]` : ''}`.slice(0, 300);
  }
  return String(error).slice(0, 300);
}

