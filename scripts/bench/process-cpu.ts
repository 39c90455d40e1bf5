// CPU time of a process tree from /proc (Linux): what a server and its database spent, which a
// loaded machine moves less than the wall clock. Benchmarks report it per request.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on every Linux this runs on). */
const ticksPerSecond = 100;

function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds (user + system) of `root` and every process below it, including children that
 * exited and were waited for (the root's cutime and cstime). 0 when /proc is missing.
 */
export function treeCpuMs(root: number): number {
  const parents = new Map<number, number>();
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return 0;
  }
  const fields = new Map<number, string[]>();
  for (const pid of pids) {
    const f = statFields(pid);
    if (!f) continue;
    fields.set(pid, f);
    parents.set(pid, Number(f[1])); // field 4, ppid
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, f] of fields) {
    if (!inTree(pid)) continue;
    // Fields 14 and 15 (utime, stime); the root also counts 16 and 17 (its waited-for children).
    ticks += Number(f[11]) + Number(f[12]);
    if (pid === root) ticks += Number(f[13]) + Number(f[14]);
  }
  return (ticks * 1000) / ticksPerSecond;
}
