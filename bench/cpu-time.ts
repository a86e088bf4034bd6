import { readFileSync } from 'node:fs';
import { ownProcesses, statFields } from './processes';

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) the process `pid` has used so far. */
export function processCpuSeconds(pid: number): number {
  const fields = statFields(String(pid));
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Process groups by what their command line names; the first that matches counts. */
const GROUPS: [string, RegExp][] = [
  ['chromium', /chrom/],
  ['s3rver', /s3rver/],
  ['server', /dist-server|server\/index/],
  ['bench', /bench/],
];

/** CPU seconds (user + system) used so far by this bench's processes still running, by group. */
export function cpuSecondsByGroup(): Map<string, number> {
  const seconds = new Map<string, number>();
  for (const pid of ownProcesses()) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const group = GROUPS.find(([, pattern]) => pattern.test(command))?.[0];
      if (!group) continue;
      // Chromium's processes by kind: the browser, renderers, the network service, the GPU process.
      const kind = /--utility-sub-type=(?:\w+\.)*(\w+)/.exec(command)?.[1] ?? /--type=([\w-]+)/.exec(command)?.[1] ?? 'browser';
      const name = group === 'chromium' ? `${group} ${kind}` : group;
      seconds.set(name, (seconds.get(name) ?? 0) + processCpuSeconds(Number(pid)));
    } catch {
      // The process ended meanwhile.
    }
  }
  return seconds;
}

/** What each group used between two readings, e.g. "chromium 4.2 s, s3rver 1.1 s". */
export function describeCpuBetween(before: Map<string, number>, after: Map<string, number>): string {
  return [...after]
    .map(([group, total]) => [group, total - (before.get(group) ?? 0)] as const)
    .filter(([, used]) => used > 0.05)
    .map(([group, used]) => `${group} ${used.toFixed(1)} s`)
    .join(', ');
}

/**
 * CPU seconds the whole machine has spent busy so far (user, nice, system, interrupts; not idle, I/O wait or time
 * stolen by the hypervisor), from /proc/stat: what every process of a run used, those that came and went included.
 */
export function machineBusySeconds(): number {
  const [user, nice, system, , , irq, softirq] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) / TICKS_PER_SECOND;
}
