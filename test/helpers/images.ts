import { PNG } from 'pngjs';

/** A sharp, bright, textured PNG in base64: a picture the demo server's pixel checks accept. */
export function noisyPngBase64(width = 320, height = 240, seed = 7): string {
  let s = seed >>> 0;
  const random = () => ((s = (s * 1664525 + 1013904223) >>> 0), s / 2 ** 32);
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    const v = Math.max(0, Math.min(255, Math.round(140 + (random() - 0.5) * 120)));
    png.data[i * 4] = v;
    png.data[i * 4 + 1] = v;
    png.data[i * 4 + 2] = v;
    png.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(png).toString('base64');
}
