import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/client.ts';
import { messagesFor, sendOps } from './settings-kit.tsx';

const refusal = (validation: { message: string; path?: string }[]) =>
  new ApiError(400, { message: 'The provided request body is invalid.', validation_errors: validation });

describe('where a refusal is shown', () => {
  it('gives each field the messages on its path, and the rest to the catch-all field', () => {
    const error = refusal([
      { path: 'codename', message: 'bad codename' },
      { path: 'steps[1].color', message: 'bad colour' },
      { message: 'no path' },
    ]);
    expect(messagesFor(error, 'codename')).toEqual(['bad codename']);
    expect(messagesFor(error, 'steps[1]')).toEqual(['bad colour']);
    expect(messagesFor(error, 'steps[0]')).toEqual([]);
    expect(messagesFor(error, 'name', true)).toEqual(['The provided request body is invalid.', 'no path']);
    expect(messagesFor(null, 'name', true)).toEqual([]);
  });

  it("renames an operation's index in a refusal to the property it changes", async () => {
    const ops = [
      { op: 'replace', property_name: 'name', value: 'Fine' },
      { op: 'replace', property_name: 'codename', value: 'not a codename!' },
    ];
    const sent = sendOps(ops, () => Promise.reject(refusal([{ path: '[1].value', message: 'bad codename' }])));
    const error = await sent.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(messagesFor(error, 'codename')).toEqual(['bad codename']);
    expect(await sendOps(ops, (o) => Promise.resolve(o.length))).toBe(2);
  });
});
