import { readdir } from 'node:fs/promises';
import { describeUploadLeaks } from '../../testing/upload-leak-suite.ts';

describeUploadLeaks({
  adapter: 'blob-fs',
  open: () =>
    Promise.resolve({
      // Every file under the store's directory: data, metadata and half-written ones in tmp/.
      list: async (dir: string) =>
        (await readdir(dir, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile())
          .map((e) => `${e.parentPath}/${e.name}`)
          .sort(),
    }),
});
