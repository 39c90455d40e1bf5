import { describe, expect, it } from 'vitest';
import { createLogger } from '@lectern/http-kit';
import { acceptUrl, linkMailer, linkMailerOf } from './links.ts';

describe('people link e-mails', () => {
  it('put the token in the fragment of the public URL', () => {
    expect(acceptUrl('https://cms.example.com/', 'abc')).toBe('https://cms.example.com/app/accept#abc');
  });

  it('are off without SMTP, and without a public URL (a request must not choose the host)', () => {
    const warnings: string[] = [];
    const logger = createLogger({ level: 'silent' });
    logger.warn = ((message: string) => {
      warnings.push(message);
    }) as typeof logger.warn;
    expect(linkMailerOf({ smtpFrom: 'x <x@y.z>' }, logger)).toBeNull();
    expect(warnings).toEqual([]);
    expect(linkMailerOf({ smtpUrl: 'smtp://mail.example.com:25', smtpFrom: 'x <x@y.z>' }, logger)).toBeNull();
    expect(warnings[0]).toMatch(/LECTERN_MANAGEMENT_PUBLIC_URL is not/);
    expect(
      linkMailerOf(
        {
          smtpUrl: 'smtp://mail.example.com:25',
          smtpFrom: 'x <x@y.z>',
          managementPublicUrl: 'https://cms.example.com',
        },
        logger,
      )?.publicUrl,
    ).toBe('https://cms.example.com');
  });

  it('say what the link is for and until when', async () => {
    const sent: { to: readonly string[]; subject: string; text: string }[] = [];
    const mailer = linkMailer({ publicUrl: 'https://cms.example.com', sendText: async (m) => void sent.push(m) });
    const expiresAt = new Date('2026-02-01T10:00:00Z');
    await mailer.send({ to: 'a@example.com', purpose: 'invite', url: 'U1', expiresAt, projectName: 'Blog' });
    await mailer.send({ to: 'a@example.com', purpose: 'reset', url: 'U2', expiresAt });
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      [['a@example.com'], 'You are invited to Blog in Lectern'],
      [['a@example.com'], 'Reset your Lectern password'],
    ]);
    expect(sent[0]?.text).toContain('U1');
    expect(sent[1]?.text).toContain('until 2026-02-01T10:00:00.000Z):\nU2');
  });
});
