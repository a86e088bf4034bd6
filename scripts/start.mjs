// `npm start`: build the SPA and the server when missing or stale, then serve SPA + API from one origin.
// `npm run serve` (`--built`): serve the existing build as it is.
import { spawn } from 'node:child_process';
import { buildIfStale } from './build-if-stale.mjs';
import { SERVER_NODE_ARGS } from './server-command.mjs';

if (!process.argv.includes('--built')) {
  try {
    buildIfStale();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
const server = spawn(process.execPath, SERVER_NODE_ARGS, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
