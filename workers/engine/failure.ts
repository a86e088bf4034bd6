import { isTransferError, type TransferError, type TransferErrorCode } from '../../contract/transfer';

/**
 * A transfer that failed, thrown inside the worker: a real Error (with a stack) that carries the TransferError's
 * fields, so that code reading `code` or `status` works on it as on the plain object.
 */
export class TransferFailure extends Error implements TransferError {
  // Declared, not defined: a field the failure does not have stays absent instead of being `undefined`.
  declare readonly code: TransferErrorCode;
  declare readonly status?: number;
  declare readonly part?: number;
  declare readonly serverMessage?: string;
  declare readonly data?: Record<string, unknown>;

  constructor(error: TransferError) {
    super(error.serverMessage ? `${error.code}: ${error.serverMessage}` : error.code);
    this.name = 'TransferFailure';
    Object.assign(this, plainFields(error));
  }
}

/** The user (or a pause) cancelled the task. */
export const cancelled = () => new TransferFailure({ code: 'cancelled' });

function plainFields({ code, status, part, serverMessage, data }: TransferError): TransferError {
  return {
    code,
    ...(status !== undefined && { status }),
    ...(part !== undefined && { part }),
    ...(serverMessage !== undefined && { serverMessage }),
    ...(data !== undefined && { data }),
  };
}

/**
 * A failure as it leaves the worker (the journal, a task's result, the page across Comlink): the plain object,
 * because IndexedDB and postMessage clone an Error without its fields. Anything not a transfer error is `fallback`.
 */
export function toTransferError(error: unknown, fallback: TransferErrorCode = 'unknown'): TransferError {
  return isTransferError(error) ? plainFields(error) : { code: fallback };
}
