import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Readable } from 'node:stream';

/** Why a tool gave no picture: it is not installed, it failed on the input, it ran too long, it wrote too much. */
export class ToolError extends Error {
  constructor(readonly problem: 'missing' | 'failed' | 'timeout' | 'too_large') {
    super(`thumbnail tool ${problem}`);
  }
}

const found = new Map<string, boolean>();

/** Whether `command` is an executable on PATH; asked once per process (installing one needs a restart). */
export function onPath(command: string): boolean {
  let known = found.get(command);
  if (known === undefined) {
    known = (process.env.PATH ?? '').split(delimiter).some((folder) => {
      try {
        accessSync(join(folder, command), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    found.set(command, known);
  }
  return known;
}

/**
 * Runs `command` with `input` on its stdin and answers its stdout. Killed (and refused) past `timeoutMs` or past
 * `maxOutputBytes` of output, so that a hostile file can hold neither a worker nor the memory for long. No shell:
 * the arguments are ours, the file's bytes only reach stdin.
 */
export function runTool(command: string, args: string[], input: Readable, limits: { timeoutMs: number; maxOutputBytes: number }): Promise<Buffer> {
  if (!onPath(command)) return Promise.reject(new ToolError('missing'));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let failure: ToolError | undefined;
    const stop = (problem: ToolError['problem']) => {
      failure ??= new ToolError(problem);
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop('timeout'), limits.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limits.maxOutputBytes) stop('too_large');
      else chunks.push(chunk);
    });
    // The tool may stop reading once it has what it needs (one page, one frame): a closed pipe is no failure.
    child.stdin.on('error', () => undefined);
    input.on('error', () => stop('failed'));
    input.pipe(child.stdin);
    child.on('error', () => stop('failed'));
    child.on('close', (code) => {
      clearTimeout(timer);
      input.destroy();
      if (failure) reject(failure);
      else if (code !== 0 || bytes === 0) reject(new ToolError('failed'));
      else resolve(Buffer.concat(chunks));
    });
  });
}
