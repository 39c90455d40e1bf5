import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * For tests: a small sentence-embedding model directory built here, so the ONNX provider runs
 * through the real runtime and tokenizer without a download. `model.onnx` is encoded by hand
 * (ONNX protobuf, opset 13): one `Gather` of a token-embedding table by `input_ids` giving
 * `last_hidden_state` [batch, tokens, dimensions]; `tokenizer.json` is a BERT WordPiece tokenizer
 * over the given words ([PAD] 0, [UNK] 1, [CLS] 2, [SEP] 3, then the words).
 */

const utf8 = new TextEncoder();

function varint(n: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return out;
}

/** A protobuf field: a number (varint), a string or bytes, or an encoded message (length-delimited). */
function field(no: number, value: number | string | Uint8Array | number[]): number[] {
  if (typeof value === 'number') return [...varint(no << 3), ...varint(value)];
  const bytes = typeof value === 'string' ? utf8.encode(value) : value;
  return [...varint((no << 3) | 2), ...varint(bytes.length), ...bytes];
}

const message = (...fields: number[][]): number[] => fields.flat();

/** ValueInfoProto of a tensor: element type (1 float, 7 int64) and dims (a string: symbolic). */
function valueInfo(name: string, elemType: number, dims: (number | string)[]): number[] {
  const shape = message(...dims.map((d) => field(1, typeof d === 'number' ? field(1, d) : field(2, d))));
  return message(field(1, name), field(2, field(1, message(field(1, elemType), field(2, shape)))));
}

/** `model.onnx` bytes: last_hidden_state = Gather(table, input_ids). */
export function tinyOnnxModel(table: readonly (readonly number[])[]): Uint8Array {
  const dimensions = table[0]?.length ?? 0;
  const raw = new Uint8Array(new Float32Array(table.flat()).buffer);
  const initializer = message(
    field(1, table.length),
    field(1, dimensions),
    field(2, 1), // FLOAT
    field(8, 'table'),
    field(9, raw),
  );
  const gather = message(
    field(1, 'table'),
    field(1, 'input_ids'),
    field(2, 'last_hidden_state'),
    field(3, 'lookup'),
    field(4, 'Gather'),
    field(5, message(field(1, 'axis'), field(3, 0), field(20, 2))), // INT
  );
  const graph = message(
    field(1, gather),
    field(2, 'tiny'),
    field(5, initializer),
    field(11, valueInfo('input_ids', 7, ['batch', 'tokens'])),
    field(12, valueInfo('last_hidden_state', 1, ['batch', 'tokens', dimensions])),
  );
  return Uint8Array.from(
    message(field(1, 8), field(2, 'lectern-test'), field(7, graph), field(8, message(field(1, ''), field(2, 13)))),
  );
}

const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];

/** `tokenizer.json` of a lower-casing BERT WordPiece tokenizer over `words`. */
export function tinyTokenizer(words: readonly string[]): object {
  const vocab = Object.fromEntries([...specials, ...words].map((w, i) => [w, i]));
  const special = (content: string) => ({
    id: vocab[content],
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: specials.map(special),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

/**
 * Writes a model directory to a new temporary directory: the table has one row per token id
 * (specials first), `maxTokens` goes to `sentence_bert_config.json`, `pooling` to `1_Pooling/config.json`.
 */
export async function writeTinyModel(options: {
  words: readonly string[];
  table: readonly (readonly number[])[];
  maxTokens?: number;
  pooling?: 'mean' | 'cls';
}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lectern-onnx-'));
  await writeFile(join(dir, 'model.onnx'), tinyOnnxModel(options.table));
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tinyTokenizer(options.words)));
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ do_lower_case: true, model_max_length: 512 }));
  await writeFile(join(dir, 'sentence_bert_config.json'), JSON.stringify({ max_seq_length: options.maxTokens ?? 128 }));
  await mkdir(join(dir, '1_Pooling'));
  const isCls = options.pooling === 'cls';
  await writeFile(
    join(dir, '1_Pooling', 'config.json'),
    JSON.stringify({ pooling_mode_cls_token: isCls, pooling_mode_mean_tokens: !isCls }),
  );
  return dir;
}
