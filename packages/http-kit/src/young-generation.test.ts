import { describe, expect, it } from 'vitest';
import { defaultSemiSpaceMib, youngGenerationArgs } from './supervisor.ts';

describe("the supervised server's young generation", () => {
  it('is capped by default, by LECTERN_V8_SEMI_SPACE_MB when set, and left to V8 with 0', () => {
    expect(youngGenerationArgs({}, [])).toEqual([`--max-semi-space-size=${defaultSemiSpaceMib}`]);
    expect(youngGenerationArgs({ LECTERN_V8_SEMI_SPACE_MB: '16' }, [])).toEqual(['--max-semi-space-size=16']);
    expect(youngGenerationArgs({ LECTERN_V8_SEMI_SPACE_MB: '0' }, [])).toEqual([]);
  });

  it('leaves a size given in NODE_OPTIONS or on the command alone', () => {
    expect(youngGenerationArgs({ NODE_OPTIONS: '--max-semi-space-size=32' }, [])).toEqual([]);
    expect(youngGenerationArgs({}, ['--max-semi-space-size=1'])).toEqual([]);
  });
});
