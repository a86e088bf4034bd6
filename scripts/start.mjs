// `npm start`: build the SPA and the server when missing or stale, then serve SPA + API from one origin.
import { spawn } from 'node:child_process';
import { buildIfStale } from './build-if-stale.mjs';

try {
  buildIfStale();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const server = spawn(process.execPath, ['dist-server/index.js'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
