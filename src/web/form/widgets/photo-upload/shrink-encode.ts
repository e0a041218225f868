import { PHOTO_LIMITS } from '../../../../core/photo-limits';

/**
 * Decodes a photo with its orientation applied and re-encodes it as JPEG,
 * scaled to the longest side; null when that is not smaller than the file.
 * Works in a worker (OffscreenCanvas) and on the page (canvas) alike.
 */
export async function encodeSmaller(file: Blob): Promise<Blob | null> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const scale = Math.min(1, PHOTO_LIMITS.longestSide / Math.max(bitmap.width, bitmap.height));
    const width = Math.round(bitmap.width * scale);
    const height = Math.round(bitmap.height * scale);
    const blob = await draw(bitmap, width, height);
    return blob.size < file.size ? blob : null;
  } finally {
    bitmap.close();
  }
}

async function draw(bitmap: ImageBitmap, width: number, height: number): Promise<Blob> {
  const options = { type: 'image/jpeg', quality: PHOTO_LIMITS.jpegQuality };
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext('2d')!;
    paint(ctx, bitmap, width, height);
    return canvas.convertToBlob(options);
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  paint(canvas.getContext('2d')!, bitmap, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('canvas gave no JPEG'))), options.type, options.quality),
  );
}

function paint(ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D, bitmap: ImageBitmap, width: number, height: number) {
  // JPEG has no transparency: a PNG's clear parts become white, not black.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(bitmap, 0, 0, width, height);
}
