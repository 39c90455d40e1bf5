import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { imageSize } from 'image-size';
import { LecternError } from '@lectern/errors';
import type { CoreDeps } from '../../deps.ts';
import { BlobStoreFullError, type BlobStore } from '../../ports/blob-store.ts';
import { assertMayChange, characterCount, type ModelInput } from '../../model/shared/index.ts';
import type { BinaryFileRecord } from './asset-record.ts';
import { discardUpload, sweepAbandonedUploadsNowAndThen } from './upload-journal.ts';

/** Default largest upload, in bytes (100 MiB; Kontent.ai does not publish its limit, SPEC 8). */
export const defaultMaxFileBytes = 100 * 1024 * 1024;
/** Bytes kept from the start of an image to read its width and height from. */
const imageHeadBytes = 1024 * 1024;
const fileNameMax = 500;
const mimeType = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(\s*;.*)?$/;

export interface UploadFileInput extends ModelInput {
  /** From the path, already URL-decoded. */
  readonly fileName: string;
  /** The raw `Content-Type` and `Content-Length` headers. */
  readonly contentType: string | undefined;
  readonly contentLength: string | undefined;
  readonly body: Readable;
  /** Largest accepted file in bytes. */
  readonly maxBytes: number;
}

/** The blob key of a file: one namespace per project. */
export function blobKeyOf(projectId: string, fileId: string): string {
  return `${projectId}/${fileId}`;
}

/**
 * Passes the body through, failing once more than `max` bytes went by, and keeps the first
 * `keep` bytes (for image size detection).
 */
class UploadMeter extends Transform {
  bytes = 0;
  readonly #head: Buffer[] = [];
  #kept = 0;
  readonly #max: number;
  readonly #keep: number;
  constructor(max: number, keep: number) {
    super();
    this.#max = max;
    this.#keep = keep;
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.#max) {
      callback(new LecternError('FILE_TOO_LARGE', { message: `The file is larger than ${this.#max} bytes.` }));
      return;
    }
    if (this.#kept < this.#keep) {
      const part = chunk.subarray(0, this.#keep - this.#kept);
      this.#head.push(Buffer.from(part));
      this.#kept += part.length;
    }
    callback(null, chunk);
  }
  head(): Buffer {
    return Buffer.concat(this.#head);
  }
}

function imageDimensions(head: Buffer): { width: number; height: number } | null {
  try {
    const size = imageSize(head);
    return size.width > 0 && size.height > 0 ? { width: size.width, height: size.height } : null;
  } catch {
    return null;
  }
}

function checkHeaders(input: UploadFileInput): { contentType: string; length: number } {
  const contentType = input.contentType?.trim() ?? '';
  if (contentType === '') throw new LecternError('FILE_CONTENT_TYPE_MISSING');
  if (!mimeType.test(contentType))
    throw new LecternError('FILE_CONTENT_TYPE_MISSING', {
      message: `'${contentType}' is not a MIME type. Send the file's type, for example 'Content-Type: image/png'.`,
    });
  if (input.contentLength === undefined || input.contentLength.trim() === '')
    throw new LecternError('FILE_CONTENT_LENGTH_MISSING');
  const length = Number(input.contentLength);
  if (!Number.isSafeInteger(length) || length < 0)
    throw new LecternError('FILE_CONTENT_LENGTH_MISSING', {
      message: `'${input.contentLength}' is not a size in bytes.`,
    });
  if (length > input.maxBytes)
    throw new LecternError('FILE_TOO_LARGE', { message: `The file is larger than ${input.maxBytes} bytes.` });
  const name = input.fileName;
  // eslint-disable-next-line no-control-regex
  if (name.trim() === '' || characterCount(name) > fileNameMax || /[\u0000-\u001f\u007f/\\]/.test(name))
    throw new LecternError('INVALID_REQUEST_BODY', {
      problems: [
        {
          path: 'file_name',
          message: `Provide a file name of 1 to ${fileNameMax} characters without slashes or control characters.`,
        },
      ],
    });
  return { contentType, length };
}

/**
 * POST /files/{file_name} (reference §2.8): streams the body into the blob store, never holding
 * it whole, reads an image's width and height from its first bytes, and records the file so one
 * asset can reference it. Headers are checked before a byte is read. Uploading appends no change
 * event: a file is invisible until an asset references it. A refused or torn upload leaves no
 * bytes stored, even across a crash (upload-journal.ts).
 */
export async function uploadBinaryFile(
  deps: CoreDeps,
  blobs: BlobStore | null,
  input: UploadFileInput,
): Promise<BinaryFileRecord> {
  assertMayChange(input.actor, input.projectId, 'manage_content');
  if (!blobs) throw new LecternError('FILE_STORAGE_UNAVAILABLE');
  const { contentType, length } = checkHeaders(input);
  const id = deps.ids.uuid();
  const key = blobKeyOf(input.projectId, id);
  const isImage = contentType.toLowerCase().startsWith('image/');
  const meter = new UploadMeter(input.maxBytes, isImage ? imageHeadBytes : 0);
  // Not `pipeline`: a failing store must not destroy the request, whose socket still has to carry
  // the error response. A client going away mid-body fails the meter, so `put` fails too. The
  // listeners go on before anything is awaited: a request failing unheard would crash the process.
  input.body.pipe(meter);
  // The meter's failure reaches `put` (which reads it) or, if it comes first, `put` finds the
  // meter failed at once; this listener only keeps it from being an uncaught 'error' meanwhile.
  meter.on('error', () => undefined);
  input.body.once('error', (error) => meter.destroy(error));
  input.body.once('close', () => {
    if (!input.body.readableEnded) meter.destroy(new Error('The upload ended before its last byte.'));
  });
  try {
    // In the journal before a byte is stored, out of it in the transaction that records the file
    // (upload-journal.ts): no step a crash interrupts can leave bytes nobody finds.
    await deps.store.transaction((tx) =>
      tx.pendingUploads.begin({ key, projectId: input.projectId, startedAt: deps.clock.now() }),
    );
    sweepAbandonedUploadsNowAndThen(deps, blobs);
    const info = await blobs.put({ key, body: meter, contentType, size: length });
    if (info.size !== length)
      throw new LecternError('INVALID_REQUEST_BODY', {
        message: `The body has ${info.size} bytes but Content-Length says ${length}.`,
      });
    const dimensions = isImage ? imageDimensions(meter.head()) : null;
    const record: BinaryFileRecord = {
      projectId: input.projectId,
      id,
      fileName: input.fileName,
      contentType,
      size: info.size,
      imageWidth: dimensions?.width ?? null,
      imageHeight: dimensions?.height ?? null,
      blobKey: key,
      createdAt: deps.clock.now(),
    };
    await deps.store.transaction(async (tx) => {
      await tx.binaryFiles.insert(record);
      await tx.pendingUploads.end(key);
    });
    return record;
  } catch (error) {
    // Whatever failed (the body, the store, the length, the database), nothing stays stored.
    await discardUpload(deps, blobs, key);
    if (error instanceof BlobStoreFullError) throw new LecternError('FILE_STORAGE_FULL', { cause: error });
    throw error;
  }
}

/**
 * The bytes of a file for the public asset URL: its record and a stream, or null when the file,
 * its name or its blob is unknown. Public by design (Kontent.ai asset URLs need no key).
 */
export async function openBinaryFile(
  deps: CoreDeps,
  blobs: BlobStore | null,
  input: { projectId: string; fileId: string; fileName: string },
): Promise<{ file: BinaryFileRecord; body: Readable } | null> {
  if (!blobs) throw new LecternError('FILE_STORAGE_UNAVAILABLE');
  const file = await deps.store.transaction((tx) => tx.binaryFiles.get(input.projectId, input.fileId));
  if (!file || file.fileName !== input.fileName) return null;
  const body = await blobs.get(file.blobKey);
  return body ? { file, body } : null;
}
