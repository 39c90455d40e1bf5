import { createServer, type Socket } from 'node:net';

/** One e-mail as the sink received it: the envelope's recipients and the raw message. */
export interface SunkMail {
  readonly to: string[];
  readonly raw: string;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, for LECTERN_SMTP_URL. */
  readonly url: string;
  readonly mails: SunkMail[];
  close(): Promise<void>;
}

/**
 * A minimal SMTP server on 127.0.0.1 for tests (no TLS, no authentication): it accepts every
 * message and keeps it. Enough of RFC 5321 for nodemailer: greeting, EHLO/HELO, MAIL, RCPT, DATA
 * (dot-unstuffed), RSET, NOOP, QUIT.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let to: string[] = [];
    let data: string[] | null = null;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== null) {
          if (line === '.') {
            mails.push({ to, raw: data.join('\r\n') });
            data = null;
            to = [];
            reply('250 queued');
          } else data.push(line.startsWith('.') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-sink\r\n250 8BITMIME\r\n');
        else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 ok');
        } else if (verb === 'DATA') {
          data = [];
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok'); // HELO, MAIL, RSET, NOOP
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
