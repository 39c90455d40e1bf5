import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The import rules of eslint.config.js (issue 29), run through ESLint's own API on code written
 * for the occasion, at the paths the rules name: adapters stand side by side, services too (but
 * the all-in-one composition), packages import no service and no test code.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The import rule's messages for `code` as if it were the file at `filePath`. */
async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('an adapter', () => {
  it('fails on importing another adapter, by package name or by relative path', async () => {
    const byName = await importErrors('packages/blob-fs/src/wrong.ts', "import { x } from '@lectern/index-sql';");
    expect(byName).toEqual([expect.stringContaining('An adapter never imports another adapter')]);
    const byPath = await importErrors(
      'packages/bus-kafka/src/wrong.ts',
      "import { x } from '../../blob-s3/src/index.ts';",
    );
    expect(byPath).toEqual([expect.stringContaining('An adapter never imports another adapter')]);
    const subpath = await importErrors(
      'packages/recs-sql/src/wrong.ts',
      "import { x } from '@lectern/recs-search/rows';",
    );
    expect(subpath).toHaveLength(1);
  });

  it('fails on importing one of a new adapter by its prefix', async () => {
    const errors = await importErrors('packages/blob-gcs/src/wrong.ts', "import { x } from '@lectern/bus-nats';");
    expect(errors).toHaveLength(1);
  });

  it('passes on importing the core, the store floor, errors, config, http-kit or a driver', async () => {
    const code = [
      "import { x } from '@lectern/core';",
      "import { y } from '@lectern/store-sql';",
      "import { z } from '@lectern/errors';",
      "import { w } from '@lectern/config';",
      "import { v } from '@lectern/http-kit';",
      "import { u } from '@lectern/search-engine';",
      "import { t } from 'kysely';",
      "import { s } from './own-module.ts';",
    ].join('\n');
    expect(await importErrors('packages/index-elasticsearch/src/right.ts', code)).toEqual([]);
    expect(await importErrors('packages/blob-s3/src/right.ts', code)).toEqual([]);
  });

  it('still fails on importing a service or test code', async () => {
    const errors = await importErrors('packages/index-sql/src/wrong.ts', "import { x } from '@lectern/testing';");
    expect(errors).toEqual([expect.stringContaining('Packages never import services or test code')]);
  });
});

describe('a service', () => {
  it('fails on importing another service, by package name or by relative path', async () => {
    const byName = await importErrors('services/delivery/src/wrong.ts', "import { x } from '@lectern/management';");
    expect(byName).toEqual([expect.stringContaining('A service never imports another service')]);
    const byPath = await importErrors(
      'services/webhooks/src/wrong.ts',
      "import { x } from '../../indexer/src/main.ts';",
    );
    expect(byPath).toHaveLength(1);
  });

  it('passes on importing packages and its own modules', async () => {
    const code = [
      "import { x } from '@lectern/core';",
      "import { y } from '@lectern/index-sql';",
      "import { z } from '@lectern/http-kit';",
      "import { w } from './http/routes.ts';",
    ].join('\n');
    expect(await importErrors('services/delivery/src/right.ts', code)).toEqual([]);
  });

  it('passes in the all-in-one composition, services/lectern, which runs every service', async () => {
    const code = "import { x } from '@lectern/management';\nimport { y } from '@lectern/delivery';";
    expect(await importErrors('services/lectern/src/right.ts', code)).toEqual([]);
  });
});
