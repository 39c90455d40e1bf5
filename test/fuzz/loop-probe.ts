import { performance, PerformanceObserver } from 'node:perf_hooks';

/** How often the probe ticks, in ms: the resolution of what it measures. */
const tickMs = 5;

/**
 * One measured request: the longest gap of the event loop, the CPU time this thread spent within
 * that gap, and when the request was in flight.
 */
export interface Hold {
  readonly loopMs: number;
  readonly cpuMs: number;
  readonly from: number;
  readonly to: number;
}

/** CPU time of this thread (the event loop's), in ms. */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1_000;
}

/**
 * Measures how long the event loop is held while a request is in flight (the server runs in
 * this process): a timer ticks every `tickMs`, and the longest gap between ticks (or since the
 * last tick, for a hold that ends just before `stop`), less one tick, is the longest the loop
 * was held. Started right before a request is sent and stopped as soon as its answer is read,
 * so what the judge does before and after (snapshots, generating the next request) is not
 * counted. A gap can also be this process waiting for a CPU (a loaded machine): the CPU time the
 * thread spent within that longest gap (`cpuMs`, read at every tick) bounds what was really work.
 * (Over the whole flight it bounded nothing on a loaded machine: a request in flight for half a
 * second does 100 ms of small steps, and one wait for a CPU then looked like a held loop.)
 * Garbage collection in flight is work too, so the probe records GC pauses (`gcMs`) for the judge
 * to set them apart.
 */
export class LoopProbe {
  #timer: NodeJS.Timeout | null = null;
  #from = 0;
  #last = 0;
  #lastCpu = 0;
  #max = 0;
  #maxCpu = 0;
  #gc: { start: number; end: number }[] = [];
  readonly #observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      this.#gc.push({ start: entry.startTime, end: entry.startTime + entry.duration });
    // Only recent pauses matter; keep the list short.
    if (this.#gc.length > 1_000) this.#gc = this.#gc.slice(-100);
  });

  constructor() {
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  start(): void {
    this.stop();
    this.#from = this.#last = performance.now();
    this.#lastCpu = threadCpuMs();
    this.#max = this.#maxCpu = 0;
    this.#timer = setInterval(() => this.#tick(), tickMs);
  }

  /** Notes the gap since the last tick (and the CPU spent in it) when it is the longest so far. */
  #tick(): void {
    const now = performance.now();
    const cpu = threadCpuMs();
    if (now - this.#last > this.#max) {
      this.#max = now - this.#last;
      this.#maxCpu = cpu - this.#lastCpu;
    }
    this.#last = now;
    this.#lastCpu = cpu;
  }

  /** Stops the probe and answers the longest hold in ms (0 when it never ran). */
  stop(): Hold {
    const to = performance.now();
    if (this.#timer === null) return { loopMs: 0, cpuMs: 0, from: to, to };
    this.#tick();
    clearInterval(this.#timer);
    this.#timer = null;
    return { loopMs: Math.max(0, this.#max - tickMs), cpuMs: this.#maxCpu, from: this.#from, to };
  }

  /**
   * Milliseconds of GC pauses within a hold's window. GC entries arrive a moment after the pause
   * (in a later turn of the loop): ask after an await or two, as the judge does after its snapshot.
   */
  gcMs(hold: Hold): number {
    return this.#gc
      .filter((g) => g.end > hold.from && g.start < hold.to)
      .reduce((sum, g) => sum + Math.min(g.end, hold.to) - Math.max(g.start, hold.from), 0);
  }

  close(): void {
    this.stop();
    this.#observer.disconnect();
  }
}
