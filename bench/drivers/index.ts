import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { adminToken, setMaxUploadSizeMb, startServer, type RunningServer } from '../../tests/e2e/harness';
import { chunkAt, MiB } from '../measure';
import { machineBusySeconds, processCpuSeconds } from '../cpu-time';
import { benchSize, SMOKE_FILE_MB, SMOKE_FILES } from '../size';
import { remoteKinds, type DirectClient, type RemoteKind, type RemoteServer } from './kinds';

const PART = 5 * MiB;
/** Parts sent at once through the fs API, as the browser's multipart pipeline sends them. */
const PARTS_AT_ONCE = 3;

/** The generated file: part-sized chunks of `chunkAt`, so both sides send the same bytes. */
function fileChunks(total: number): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0, index = 1; at < total; at += PART, index += 1) yield chunkAt(index, Math.min(PART, total - at));
    })(),
  );
}

async function digestOf(stream: AsyncIterable<Uint8Array>): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * A phase's wall seconds, and the CPU seconds spent meanwhile by the whole machine, this process (the client) and
 * Clipstash's server; the rest is mostly the protocol's server.
 */
interface Timed {
  seconds: number;
  machineCpu: number;
  clientCpu: number;
  serverCpu: number;
}

async function timed(serverPid: number, work: () => Promise<unknown>): Promise<Timed> {
  // Each phase starts with no dirty pages of the one before: their writeback would be charged to whichever came next.
  execFileSync('sync');
  const started = performance.now();
  const busy = machineBusySeconds();
  const server = processCpuSeconds(serverPid);
  const client = process.cpuUsage();
  await work();
  const used = process.cpuUsage(client);
  return {
    seconds: (performance.now() - started) / 1000,
    machineCpu: machineBusySeconds() - busy,
    clientCpu: (used.user + used.system) / 1e6,
    serverCpu: processCpuSeconds(serverPid) - server,
  };
}

/** "2.41 s (CPU: machine 3.9 s, client 1.6 s, Clipstash 1.2 s)" */
const described = ({ seconds, machineCpu, clientCpu, serverCpu }: Timed, digits = 2, server = 'Clipstash') =>
  `${seconds.toFixed(digits)} s (CPU: machine ${machineCpu.toFixed(1)} s, client ${clientCpu.toFixed(1)} s, ${server} ${serverCpu.toFixed(1)} s)`;

type Api = (path: string, init?: RequestInit) => Promise<Record<string, unknown>>;

function apiOf(server: RunningServer, token: string): Api {
  return async (path, init = {}) => {
    const res = await fetch(`${server.url}/api${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });
    const body = (await res.json()) as { data: Record<string, unknown>; message: string };
    if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${body.message}`);
    return body.data;
  };
}

/**
 * One part's POST over node:http. fetch (undici) spends twice its CPU sending the same bytes, on a core the server
 * and the protocol's server share: the figure would measure the bench's HTTP client more than Clipstash.
 */
function postPart(url: string, token: string, agent: Agent, body: Uint8Array): Promise<{ etag: string }> {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream', 'content-length': body.length };
    const sent = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        try {
          const answer = JSON.parse(text) as { data: { etag: string }; message: string };
          if (res.statusCode === 200) resolve(answer.data);
          else reject(new Error(`a part answered ${res.statusCode}: ${answer.message}`));
        } catch {
          reject(new Error(`a part answered ${res.statusCode}: ${text.slice(0, 200)}`));
        }
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The generated file's parts POSTed to `partUrl(n)`, PARTS_AT_ONCE at a time; their ETags by part number. */
async function sendParts(partUrl: (partNumber: number) => string, token: string, total: number) {
  const partCount = Math.ceil(total / PART);
  const etags: { partNumber: number; etag: string }[] = [];
  let next = 1;
  const agent = new Agent({ keepAlive: true, maxSockets: PARTS_AT_ONCE });
  const sender = async () => {
    for (let partNumber = next++; partNumber <= partCount; partNumber = next++) {
      const { etag } = await postPart(partUrl(partNumber), token, agent, chunkAt(partNumber, Math.min(PART, total - (partNumber - 1) * PART)));
      etags.push({ partNumber, etag });
    }
  };
  try {
    await Promise.all(Array.from({ length: PARTS_AT_ONCE }, sender));
  } finally {
    agent.destroy();
  }
  return etags.sort((a, b) => a.partNumber - b.partNumber);
}

/** The file up through the fs API's multipart routes (parts staged by the server, then sent on to the storage). */
async function uploadThroughClipstash(api: Api, server: RunningServer, token: string, folder: string, total: number) {
  const init = await api('/admin/fs/multipart/init', { method: 'POST', body: JSON.stringify({ path: folder, filename: 'big.bin', fileSize: total }) });
  const started = performance.now();
  const etags = await sendParts((partNumber) => {
    const query = new URLSearchParams({ path: String(init.path), uploadId: String(init.uploadId), key: String(init.key), partNumber: String(partNumber) });
    return `${server.url}/api/admin/fs/multipart/part?${query}`;
  }, token, total);
  const partsSent = performance.now();
  const done = await api('/admin/fs/multipart/complete', { method: 'POST', body: JSON.stringify({ path: init.path, uploadId: init.uploadId, key: init.key, parts: etags }) });
  if (done.size !== total) throw new Error(`Clipstash stored ${String(done.size)} bytes of ${total}`);
  return { partsSeconds: (partsSent - started) / 1000, completeSeconds: (performance.now() - partsSent) / 1000 };
}

/**
 * The same upload through bare-relay.ts, started for it in a process of its own: what no server between the client
 * and the storage can beat on this machine; with `staged`, what none that keeps the parts on its disk can beat.
 */
async function uploadThroughBareRelay(kind: RemoteKind, remote: RemoteServer, path: string, total: number, staged: boolean): Promise<Timed> {
  const script = fileURLToPath(new URL('./bare-relay.ts', import.meta.url));
  const staging = staged ? mkdtempSync(join(tmpdir(), 'clipstash-bench-staging-')) : undefined;
  const child = spawn(process.execPath, ['--import', 'tsx', script, kind.name, JSON.stringify(remote.config), path, String(Math.ceil(total / PART)), ...(staging ? [staging] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [port] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const upload = await timed(child.pid ?? 0, () => sendParts((partNumber) => `http://127.0.0.1:${port}/part?partNumber=${partNumber}`, '', total));
    if (statSync(join(remote.directory, path.slice(remote.remotePath.length))).size !== total) throw new Error(`${kind.name}: the bare relay's file is short`);
    return upload;
  } finally {
    child.kill();
    if (staging) rmSync(staging, { recursive: true, force: true });
  }
}

/** Direct time over Clipstash's, rounded: above 1 Clipstash was faster. */
const ratio = (direct: number, clipstash: number) => Math.round((direct / clipstash) * 100) / 100;

/**
 * `npm run bench -- drivers`: per remote kind, a file of BENCH_SIZE_MB (512) up and down and a folder of BENCH_FILES
 * (10,000) listed, through Clipstash's fs API and directly with the protocol's own client library from Node, against
 * the same real server (bench/README.md "drivers").
 */
export async function driversBench() {
  const total = Math.round(benchSize(512, SMOKE_FILE_MB, 'BENCH_SIZE_MB') * MiB);
  const files = benchSize(10_000, SMOKE_FILES, 'BENCH_FILES');
  const expected = await digestOf(fileChunks(total));
  const server = await startServer();
  try {
    const token = await adminToken(server.url);
    const api = apiOf(server, token);
    await setMaxUploadSizeMb(server.url, token, total / MiB + 1);
    for (const kind of remoteKinds) {
      if (!kind.available()) {
        console.error(`drivers: ${kind.name} skipped (${kind.needs} not installed)`);
        continue;
      }
      const remote = await kind.start();
      const direct: DirectClient = await kind.direct(remote);
      try {
        const owner = statSync(remote.directory);
        const made = (path: string) => chownSync(path, owner.uid, owner.gid);
        for (const folder of ['clips', 'clips/direct', 'clips/via', 'clips/floor', 'clips/many']) {
          mkdirSync(join(remote.directory, folder));
          made(join(remote.directory, folder));
        }
        for (let index = 0; index < files; index += 1) {
          const file = join(remote.directory, 'clips/many', `f-${String(index).padStart(5, '0')}.txt`);
          writeFileSync(file, 'x');
          made(file);
        }
        const clips = `${remote.remotePath}/clips`;
        const config = await api('/s3-configs', {
          method: 'POST',
          body: JSON.stringify({ name: kind.name, default_folder: clips.replace(/^\//, ''), allow_private_host: true, ...remote.config }),
        });
        const mountPath = `/${kind.name.toLowerCase()}`;
        await api('/admin/mounts', { method: 'POST', body: JSON.stringify({ name: kind.name, storage_type: kind.name, storage_config_id: config.id, mount_path: mountPath, cache_ttl: 0 }) });

        const upDirect = await timed(server.pid, () => direct.upload(`${clips}/direct/big.bin`, fileChunks(total)));
        let phases = { partsSeconds: 0, completeSeconds: 0 };
        const upClipstash = await timed(server.pid, async () => (phases = await uploadThroughClipstash(api, server, token, `${mountPath}/via`, total)));
        const upFloor = kind.relayFloor ? await uploadThroughBareRelay(kind, remote, `${clips}/floor/big.bin`, total, false) : undefined;
        const upStagedFloor = kind.relayFloor ? await uploadThroughBareRelay(kind, remote, `${clips}/floor/staged.bin`, total, true) : undefined;
        let downloaded = { bytes: 0, sha256: '' };
        const downDirect = await timed(server.pid, async () => (downloaded = await digestOf(await direct.download(`${clips}/direct/big.bin`))));
        if (downloaded.sha256 !== expected.sha256) throw new Error(`${kind.name}: the direct download differs`);
        const downClipstash = await timed(server.pid, async () => {
          const res = await fetch(`${server.url}/api/admin/fs/download?path=${encodeURIComponent(`${mountPath}/via/big.bin`)}`, { headers: { Authorization: `Bearer ${token}` } });
          downloaded = await digestOf(res.body as unknown as AsyncIterable<Uint8Array>);
        });
        if (downloaded.sha256 !== expected.sha256) throw new Error(`${kind.name}: the download through Clipstash differs`);
        let listed = 0;
        const listDirect = await timed(server.pid, async () => (listed = await direct.count(`${clips}/many`)));
        if (listed !== files) throw new Error(`${kind.name}: the direct listing has ${listed} of ${files}`);
        const listClipstash = await timed(server.pid, async () => (listed = ((await api(`/admin/fs/list?path=${encodeURIComponent(`${mountPath}/many`)}&refresh=true`)).items as unknown[]).length));
        if (listed !== files) throw new Error(`${kind.name}: the listing through Clipstash has ${listed} of ${files}`);

        const name = kind.name.toLowerCase();
        console.error(
          [
            `drivers ${kind.name}: up ${described(upDirect)} direct, ${described(upClipstash)} Clipstash (parts ${phases.partsSeconds.toFixed(2)} s, complete ${phases.completeSeconds.toFixed(2)} s)`,
            ...(upFloor && upStagedFloor ? [`  bare relay ${described(upFloor, 2, 'relay')}, staging its parts ${described(upStagedFloor, 2, 'relay')}`] : []),
            `  down ${described(downDirect)} direct, ${described(downClipstash)} Clipstash`,
            `  list ${described(listDirect, 3)} direct, ${described(listClipstash, 3)} Clipstash`,
          ].join('\n'),
        );
        console.log(`drivers_${name}_upload_ratio: ${ratio(upDirect.seconds, upClipstash.seconds)}`);
        console.log(`drivers_${name}_complete_s: ${phases.completeSeconds.toFixed(2)}`);
        if (upFloor) console.log(`drivers_${name}_relay_floor_ratio: ${ratio(upDirect.seconds, upFloor.seconds)}`);
        if (upStagedFloor) console.log(`drivers_${name}_staged_relay_floor_ratio: ${ratio(upDirect.seconds, upStagedFloor.seconds)}`);
        console.log(`drivers_${name}_download_ratio: ${ratio(downDirect.seconds, downClipstash.seconds)}`);
        console.log(`drivers_${name}_list_ratio: ${ratio(listDirect.seconds, listClipstash.seconds)}`);
      } finally {
        await direct.close();
        await remote.stop();
      }
    }
  } finally {
    await server.stop();
  }
}
