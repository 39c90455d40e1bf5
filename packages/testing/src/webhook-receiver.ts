import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** One POST as the receiver got it. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly json: Record<string, unknown>;
  /** The status the receiver answered with. */
  readonly status: number;
}

/**
 * A webhook receiver on 127.0.0.1 for tests: records every POST and answers `status` (change it
 * to make the receiver fail), or never answers while `isHanging`.
 */
export interface TestReceiver {
  readonly url: string;
  readonly received: Received[];
  status: number;
  isHanging: boolean;
  /** Resolves once `count` POSTs have been received. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTestReceiver(options: { host?: string } = {}): Promise<TestReceiver> {
  const host = options.host ?? '127.0.0.1';
  const received: Received[] = [];
  const hanging = new Set<() => void>();
  const receiver: TestReceiver = {
    url: '',
    received,
    status: 200,
    isHanging: false,
    async waitFor(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`received ${received.length} of ${count} POSTs`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (receiver.isHanging) {
        hanging.add(() => res.destroy());
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({
        headers: req.headers,
        text,
        json: JSON.parse(text) as Record<string, unknown>,
        status: receiver.status,
      });
      res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end(`answer ${receiver.status}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return Object.assign(receiver, { url: `http://${host}:${port}/hook` });
}
