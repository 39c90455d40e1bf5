import sharp from 'sharp';

/** RGB of each quadrant of the test image: top-left, top-right, bottom-left, bottom-right. */
export const quadrantColours = {
  topLeft: [255, 0, 0],
  topRight: [0, 255, 0],
  bottomLeft: [0, 0, 255],
  bottomRight: [255, 255, 255],
} as const;

/** A PNG of `width` × `height` in four solid quadrants (so crops can be told apart by colour). */
export async function quadrantPng(options: { width: number; height: number }): Promise<Buffer> {
  const { width, height } = options;
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const isRight = x >= width / 2;
      const isBottom = y >= height / 2;
      const c = isBottom
        ? isRight
          ? quadrantColours.bottomRight
          : quadrantColours.bottomLeft
        : isRight
          ? quadrantColours.topRight
          : quadrantColours.topLeft;
      raw.set(c, (y * width + x) * 3);
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A JPEG of `width` × `height` Gaussian noise: hard to compress, like a detailed photo. */
export async function noisyJpeg(options: { width: number; height: number }): Promise<Buffer> {
  return sharp({
    create: { ...options, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** The decoded image's format and size, and the RGB of the pixel at (x, y). */
export async function inspectImage(
  bytes: Buffer,
  at: { x: number; y: number } = { x: 0, y: 0 },
): Promise<{ format: string; width: number; height: number; pixel: number[] }> {
  const meta = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (at.y * info.width + at.x) * info.channels;
  return {
    format: meta.format,
    width: meta.width,
    height: meta.height,
    pixel: [...data.subarray(i, i + 3)],
  };
}
