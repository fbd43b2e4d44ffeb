/** An image's format and pixel size, as its header says. */
export interface ImageSize {
  format: "png" | "jpeg";
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The format and size of a PNG (its IHDR chunk, always first) or a JPEG (its SOF segment), read
 * from the header bytes alone: no image library, no decoding. Undefined for anything else, or a
 * header cut short. It does not say the rest of the file is whole.
 */
export function imageSizeOf(bytes: Buffer): ImageSize | undefined {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    if (bytes.toString("latin1", 12, 16) !== "IHDR") return undefined;
    return { format: "png", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  return undefined;
}

/** Start-of-frame markers (SOF0–SOF15), which hold the size; C4, C8 and CC are other segments. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Walks the segments after SOI up to the first start of frame (before any scan data). */
function jpegSize(bytes: Buffer): ImageSize | undefined {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] as number;
    // Fill bytes, and markers that stand alone without a length.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    // End of image or start of scan before any frame header: no size to be had.
    if (marker === 0xd9 || marker === 0xda) return undefined;
    const length = bytes.readUInt16BE(at + 2);
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) return undefined;
      return {
        format: "jpeg",
        height: bytes.readUInt16BE(at + 5),
        width: bytes.readUInt16BE(at + 7),
      };
    }
    at += 2 + length;
  }
  return undefined;
}
