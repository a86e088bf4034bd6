import { readdirSync, readFileSync } from 'node:fs';

/** The bench's own processes, read from /proc (Linux). */

/** `/proc/<pid>/stat`'s fields after the command's closing parenthesis (state, ppid, …; utime and stime are the 12th and 13th). */
export function statFields(pid: string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** This process and every process it started (other work on the machine is not counted). */
export function ownProcesses(): string[] {
  const children = new Map<string, string[]>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const parent = statFields(pid)[1] ?? '';
      children.set(parent, [...(children.get(parent) ?? []), pid]);
    } catch {
      // The process ended meanwhile.
    }
  }
  const own = [String(process.pid)];
  for (let index = 0; index < own.length; index++) own.push(...(children.get(own[index] as string) ?? []));
  return own;
}

/** A process's resident memory in bytes (`VmRSS` of `/proc/<pid>/status`); NaN when it cannot be read. */
export function residentBytes(pid: number | string): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb === undefined ? Number.NaN : Number(kb) * 1024;
}

/** Resident memory of this bench's Chromium processes together (browser, renderers, network service, GPU). */
export function chromiumResidentBytes(): number {
  let bytes = 0;
  for (const pid of ownProcesses()) {
    try {
      if (/chrom/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) bytes += residentBytes(pid) || 0;
    } catch {
      // The process ended meanwhile.
    }
  }
  return bytes;
}

/** Samples `read()` twice a second until the returned function is called, which answers the highest sample. */
export function samplePeak(read: () => number): () => number {
  let peak = read();
  const sampler = setInterval(() => (peak = Math.max(peak, read())), 500);
  return () => {
    clearInterval(sampler);
    return Math.max(peak, read());
  };
}
