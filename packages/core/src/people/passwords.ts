import { argon2, randomBytes, timingSafeEqual, type Argon2Parameters } from 'node:crypto';
import { Problems } from '../model/shared/problems.ts';

/*
 * Passwords of people (issue 28): argon2id with OWASP's parameters (19 MiB, 2 passes, one lane),
 * stored as a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, unpadded base64).
 * Hashing runs on libuv's thread pool (`crypto.argon2`), never on the event loop.
 */

export const minPasswordLength = 10;
export const maxPasswordLength = 256;

const memoryKib = 19_456;
const passes = 2;
const parallelism = 1;
const tagLength = 32;

function derive(password: string, nonce: Buffer, params: { m: number; t: number; p: number; length: number }) {
  const parameters: Argon2Parameters = {
    message: password,
    nonce,
    memory: params.m,
    passes: params.t,
    parallelism: params.p,
    tagLength: params.length,
  };
  return new Promise<Buffer>((resolve, reject) => {
    argon2('argon2id', parameters, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/** Refuses (400, problem at `password`) a password shorter than 10 or longer than 256 characters. */
export function checkPassword(password: unknown): string {
  const problems = new Problems();
  if (typeof password !== 'string') problems.add('password', 'Provide the password as a string.');
  else if ([...password].length < minPasswordLength)
    problems.add('password', `The password must be at least ${minPasswordLength} characters long.`);
  else if ([...password].length > maxPasswordLength)
    problems.add('password', `The password must be at most ${maxPasswordLength} characters long.`);
  problems.throwIfAny();
  return password as string;
}

/** The PHC string of `password` with a fresh 16-byte salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const tag = await derive(password, salt, { m: memoryKib, t: passes, p: parallelism, length: tagLength });
  return `$argon2id$v=19$m=${memoryKib},t=${passes},p=${parallelism}$${b64(salt)}$${b64(tag)}`;
}

const phc = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,2})\$([A-Za-z0-9+/]{11,})\$([A-Za-z0-9+/]{22,})$/;

/**
 * Whether `password` matches the PHC string (with the parameters it was hashed with; the tags
 * compared in constant time). A string that is not an argon2id PHC string matches nothing.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = phc.exec(stored);
  if (!match) return false;
  const [, m, t, p, salt, hash] = match as unknown as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    m: Number(m),
    t: Number(t),
    p: Number(p),
    length: expected.length,
  });
  return timingSafeEqual(actual, expected);
}

/** A hash of nothing anyone knows: verified against when there is no account, so both take as long. */
export const decoyHash = `$argon2id$v=19$m=${memoryKib},t=${passes},p=${parallelism}$${b64(Buffer.alloc(16, 7))}$${b64(Buffer.alloc(tagLength, 9))}`;
