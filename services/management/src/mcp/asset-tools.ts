import { Readable } from 'node:stream';
import { z } from 'zod';
import { addAsset, assetJson, getAsset, listAssets, uploadBinaryFile } from '@lectern/core';
import { LecternError } from '@lectern/errors';
import {
  checkedKey,
  continuationOf,
  continuationToken,
  jsonObject,
  modelInput,
  reference,
  tool,
  type AnyTool,
  type McpContext,
} from './tool-kit.ts';

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of an upload: decoded from base64, or fetched from the URL through the SSRF guard. */
async function bytesOf(
  args: {
    data_base64?: string | undefined;
    url?: string | undefined;
    file_name?: string | undefined;
    content_type?: string | undefined;
  },
  context: McpContext,
) {
  if ((args.data_base64 === undefined) === (args.url === undefined))
    throw new LecternError('INVALID_REQUEST_BODY', {
      problems: [{ message: 'Give exactly one of data_base64 (the file bytes) or url (where to fetch them).' }],
    });
  if (args.url !== undefined) {
    const remote = await context.fetchRemote(args.url, context.maxFileBytes);
    return {
      bytes: remote.bytes,
      fileName: args.file_name ?? remote.fileName,
      contentType: args.content_type ?? remote.contentType,
    };
  }
  const data = (args.data_base64 ?? '').replace(/\s+/g, '');
  if (!base64.test(data) || data.length % 4 === 1)
    throw new LecternError('INVALID_REQUEST_BODY', { problems: [{ path: 'data_base64', message: 'is not base64' }] });
  return {
    bytes: Buffer.from(data, 'base64'),
    fileName: args.file_name ?? 'file',
    contentType: args.content_type ?? 'application/octet-stream',
  };
}

/** Assets: list, read, and upload from bytes or a URL. */
export const assetTools: readonly AnyTool[] = [
  tool({
    name: 'list-assets-mapi',
    title: 'List assets',
    description: 'Assets (files with title, descriptions, folder, collection and URL), paged.',
    input: { continuation_token: continuationToken },
    isReadOnly: true,
    run: async (args, context) => {
      const page = await listAssets(context.core, {
        ...modelInput(context),
        continuation: continuationOf(args.continuation_token),
      });
      return {
        assets: page.items.map((view) => assetJson(view, context.assetsBase)),
        pagination: { continuation_token: page.continuationToken },
      };
    },
  }),
  tool({
    name: 'get-asset-mapi',
    title: 'Get an asset',
    description: 'One asset with its URL, size, type and descriptions.',
    input: { asset: reference },
    isReadOnly: true,
    run: async (args, context) =>
      assetJson(
        await getAsset(context.core, { ...modelInput(context), key: checkedKey(args.asset, 'ASSET_NOT_FOUND') }),
        context.assetsBase,
      ),
  }),
  tool({
    name: 'upload-asset-mapi',
    title: 'Upload an asset',
    description:
      'Uploads a file and creates an asset of it (Management API POST /files then POST /assets). Send the bytes ' +
      'as data_base64 (small files: the request body limit applies) or a public http(s) url the server fetches ' +
      '(loopback, private and metadata addresses are refused).',
    input: {
      data_base64: z.string().optional().describe('The file bytes, base64'),
      url: z.string().max(2048).optional().describe('Where the server fetches the file'),
      file_name: z.string().max(200).optional().describe('File name (default: the URL’s last segment)'),
      content_type: z.string().max(200).optional().describe('MIME type, e.g. image/png (default: the URL’s answer)'),
      title: z.string().max(200).optional(),
      codename: z.string().max(200).optional(),
      external_id: z.string().max(200).optional(),
      folder: reference.optional(),
      collection: jsonObject.optional().describe('{ "reference": { "codename": … } }'),
      descriptions: z.array(jsonObject).max(100).optional().describe('[{ language: { codename }, description }]'),
    },
    isReadOnly: false,
    run: async (args, context) => {
      const { data_base64: _data, url: _url, file_name: _name, content_type: _type, ...fields } = args;
      const file = await bytesOf(args, context);
      const uploaded = await uploadBinaryFile(context.core, context.blobs, {
        ...modelInput(context),
        fileName: file.fileName,
        contentType: file.contentType,
        contentLength: String(file.bytes.length),
        body: Readable.from([file.bytes]),
        maxBytes: context.maxFileBytes,
      });
      const body = { ...fields, file_reference: { id: uploaded.id, type: 'internal' } };
      return assetJson(await addAsset(context.core, { ...modelInput(context), body }), context.assetsBase);
    },
  }),
];
