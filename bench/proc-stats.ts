// What the kernel says about a benchmarked process (Linux /proc): resident memory now and at its peak, and
// CPU time used by all its threads. CPU time is what the machine spends per request whatever else runs on
// it, so ratios of CPU per request hold on a busy machine where throughput figures do not.
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK)

function statusField(pid: number, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(match[1]) / 1024;
}

/** Resident set size now, in MB. */
export const rssMb = (pid: number): number => statusField(pid, 'VmRSS');

/** The highest resident set size since the process started (the kernel's high-water mark), in MB. */
export const peakRssMb = (pid: number): number => statusField(pid, 'VmHWM');

/** User + system CPU time of every thread of the process so far, in milliseconds. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) in parentheses: utime is the 14th, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
