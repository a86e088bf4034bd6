/**
 * s3rver in a process of its own, for the transfer benchmark: like a real S3 server, it shares its event loop with
 * neither client (nor with Playwright, which runs in the benchmark's process). Prints its endpoint and bucket as
 * one JSON line, and stops (removing its folder) on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startS3rver } from '../../tests/fixtures/s3rver';

export interface S3rverProcess {
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
}

/** Starts this file as a child process and waits for its endpoint. */
export async function startS3rverProcess(): Promise<S3rverProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(output.slice(0, output.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  const { endpoint, bucket } = JSON.parse(line) as { endpoint: string; bucket: string };
  return {
    endpoint,
    bucket,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s3 = await startS3rver();
  process.stdout.write(`${JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket })}\n`);
  process.once('SIGTERM', () => {
    void s3.stop().finally(() => process.exit(0));
  });
}
