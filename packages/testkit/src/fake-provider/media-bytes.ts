import { deflateSync } from 'node:zlib';

// Small but well-formed media, so adapters that sniff, decode or measure what they store still work.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const frame = Buffer.alloc(8 + data.length + 4);
  frame.writeUInt32BE(data.length, 0);
  typed.copy(frame, 4);
  frame.writeUInt32BE(crc32(typed), 8 + data.length);
  return frame;
}

/** A solid-colour RGB PNG of the requested size; a flat colour deflates to a few kilobytes. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit depth, truecolour, default compression/filter, no interlace
  const row = Buffer.alloc(1 + width * 3); // leading 0 = no filter
  for (let x = 0; x < width; x += 1) row.set([r, g, b], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** 16-bit mono 24 kHz silence in a RIFF/WAVE container (TTS APIs answer at 24 kHz). */
export function silentWav(seconds: number): Buffer {
  const data = Buffer.alloc(Math.round(seconds * 24_000) * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(24_000, 24);
  header.writeUInt32LE(48_000, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export const silentPcm = (seconds: number): Buffer => silentWav(seconds).subarray(44);

/** MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, 417 bytes, ~26 ms each) with empty audio data. */
export function silentMp3(seconds: number): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64], 0);
  return Buffer.concat(Array.from({ length: Math.max(1, Math.round(seconds / 0.026)) }, () => frame));
}

/** Leading magic bytes plus zero padding, for formats that only need to be recognisable. */
export const paddedBytes = (magic: string, length: number): Buffer =>
  Buffer.concat([Buffer.from(magic, 'latin1'), Buffer.alloc(Math.max(0, length - magic.length))]);

/** An `ftyp` box (what file sniffers look for) followed by an `mdat` box sized by duration. */
export function fakeMp4(seconds: number): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isomiso2', 16, 'latin1');
  const payload = Buffer.alloc(Math.max(1, Math.round(seconds)) * 1024);
  const mdat = Buffer.alloc(8);
  mdat.writeUInt32BE(8 + payload.length, 0);
  mdat.write('mdat', 4, 'latin1');
  return Buffer.concat([ftyp, mdat, payload]);
}
