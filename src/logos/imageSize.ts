import { crc32 } from "node:zlib";

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

/**
 * Whether an image's bytes are whole: every chunk of a PNG matches its CRC, up to an IEND that
 * ends the file (a changed byte or a cut is found); a JPEG, which has no sums, ends with its
 * end-of-image marker (a cut is found, a changed byte inside is not).
 */
export function imageIsWhole(bytes: Buffer): boolean {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes.at(-2) === 0xff && bytes.at(-1) === 0xd9;
  }
  let at = 8;
  while (at + 12 <= bytes.length) {
    const end = at + 12 + bytes.readUInt32BE(at);
    if (
      end > bytes.length ||
      crc32(bytes.subarray(at + 4, end - 4)) !== bytes.readUInt32BE(end - 4)
    ) {
      return false;
    }
    if (bytes.toString("latin1", at + 4, at + 8) === "IEND") return end === bytes.length;
    at = end;
  }
  return false;
}
