import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { addTaxonomy, addWebhook, createApiKey, operator } from '@lectern/core';
import { openTestCore, seedProject, startTestReceiver, type TestCore, type TestReceiver } from '@lectern/testing';
import { createHttpSender } from './http-sender.ts';
import { createSmtpSender } from './mail.ts';
import { retryDelaysMs } from './retry-policy.ts';
import { createWebhookWorker, type WebhookWorker } from './worker.ts';

const hour = 3_600_000;
const day = 24 * hour;

interface Mail {
  to: string[];
  text: string;
}

/** An SMTP sink on 127.0.0.1 that keeps every message. */
async function startSmtpSink(): Promise<{ url: string; mails: Mail[]; close: () => Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let core: TestCore;
let projectId: string;
let receiver: TestReceiver;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let worker: WebhookWorker;

beforeEach(async () => {
  core = await openTestCore();
  projectId = (await seedProject(core, ['management'])).projectId;
  receiver = await startTestReceiver();
  sink = await startSmtpSink();
  worker = createWebhookWorker({
    store: core.store,
    clock: core.clock,
    ids: core.ids,
    send: createHttpSender({ isPrivateAllowed: true }),
    mail: createSmtpSender({ url: sink.url, from: 'Lectern <lectern@test>' }),
    onError: (error) => {
      throw error;
    },
  });
});
afterEach(async () => {
  await worker.stop();
  await receiver.close();
  await sink.close();
  await core.store.close();
});

/** The Subject header, unfolded, with RFC 2047 Q-encoded words decoded. */
function subjectOf(raw: string): string | undefined {
  const unfolded = raw.replace(/\r?\n[ \t]+/g, ' ');
  const header = /^Subject: (.*)$/m.exec(unfolded)?.[1];
  return header?.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, word: string) =>
    Buffer.from(
      word.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8'),
  );
}
const subjects = () => sink.mails.map((m) => subjectOf(m.text));

describe('webhook e-mails (SPEC 6.7)', () => {
  it('tells the API managers after an hour of failures (once), when a notification is given up, and on recovery', async () => {
    await addWebhook(core, {
      actor: operator,
      projectId,
      format: 'vnext',
      body: {
        name: 'Mailer',
        url: receiver.url,
        secret: 'top-secret-value',
        delivery_triggers: { slot: 'published', events: 'all' },
      },
    });
    receiver.status = 500;
    await addTaxonomy(core, { actor: operator, projectId, body: { name: 'T', codename: 't', terms: [] } });
    await worker.catchUp();
    await worker.deliverDue();
    let elapsed = 0;
    for (const delay of retryDelaysMs) {
      core.clock.advance(delay);
      elapsed += delay;
      await worker.deliverDue();
      // Nothing before the failures have lasted an hour.
      if (elapsed < hour) expect(sink.mails).toEqual([]);
    }
    expect(subjects()).toEqual(['Webhook "Mailer" has been failing for an hour']);
    expect(sink.mails[0]?.to).toEqual(['tester@example.com']);
    expect(sink.mails[0]?.text).not.toContain('top-secret-value');
    while (elapsed < 3 * day + hour) {
      core.clock.advance(hour);
      elapsed += hour;
      await worker.deliverDue();
    }
    // Both slots' notifications were given up; the hourly e-mail was not repeated.
    expect(subjects().filter((s) => s?.includes('failing'))).toHaveLength(1);
    expect(subjects().filter((s) => s?.includes('given up')).length).toBeGreaterThanOrEqual(1);

    receiver.status = 200;
    await addTaxonomy(core, { actor: operator, projectId, body: { name: 'U', codename: 'u', terms: [] } });
    await worker.catchUp();
    await worker.deliverDue();
    expect(subjects().at(-1)).toBe('Webhook "Mailer" works again');
  });

  it('tells the API managers once, 5 days before a management key expires (SPEC 3.2)', async () => {
    const issued = await createApiKey(core, {
      actor: operator,
      projectId,
      kind: 'management',
      userEmail: 'short@example.com',
      validityDays: 6,
    });
    await worker.deliverDue();
    expect(sink.mails).toEqual([]);
    core.clock.advance(day + 60_000);
    await worker.deliverDue();
    expect(sink.mails).toHaveLength(1);
    expect(sink.mails[0]?.to).toEqual(['short@example.com', 'tester@example.com']);
    expect(subjects()[0]).toMatch(/^A management API key of project .* expires on \d{4}-\d{2}-\d{2}$/);
    expect(sink.mails[0]?.text).toContain(issued.key.id);
    core.clock.advance(hour);
    await worker.deliverDue();
    expect(sink.mails).toHaveLength(1);
  });
});
