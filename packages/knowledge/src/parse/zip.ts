import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Inflate } from 'fflate';
import { tooLarge, unreadable } from './errors';
import type { ParseLimits } from './types';

/** One entry of a ZIP central directory. */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  /** As declared by the archive; the inflated bytes are counted, not trusted. */
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CDH = 0x02014b50;
const LFH = 0x04034b50;
const CHUNK = 64 * 1024;

/**
 * A ZIP archive read from memory with zip-bomb limits: the entry count and the declared sizes are
 * checked when it is opened, and every inflated byte is counted against `maxUncompressedBytes`
 * (shared by all entries), so an entry that lies about its size is stopped too.
 */
export class ZipArchive {
  readonly entries: ReadonlyMap<string, ZipEntry>;
  private inflated = 0;

  private constructor(
    private readonly data: Uint8Array,
    entries: Map<string, ZipEntry>,
    private readonly limits: ParseLimits,
  ) {
    this.entries = entries;
  }

  static open(data: Uint8Array, limits: ParseLimits): ZipArchive {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let eocd = -1;
    for (let i = data.byteLength - 22; i >= Math.max(0, data.byteLength - 22 - 0xffff); i--) {
      if (view.getUint32(i, true) === EOCD) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw unreadable('not a readable ZIP archive (no central directory; truncated?)');
    const count = view.getUint16(eocd + 10, true);
    const cdSize = view.getUint32(eocd + 12, true);
    const cdOffset = view.getUint32(eocd + 16, true);
    if (count === 0xffff || cdOffset === 0xffffffff) throw unreadable('ZIP64 archives are not supported');
    if (count > limits.maxEntries) {
      throw tooLarge(`archive has ${count} entries, above the limit of ${limits.maxEntries}`);
    }
    if (cdOffset + cdSize > eocd) throw unreadable('corrupt ZIP archive (central directory out of range)');

    const decoder = new TextDecoder();
    const entries = new Map<string, ZipEntry>();
    let declared = 0;
    let p = cdOffset;
    for (let i = 0; i < count; i++) {
      if (p + 46 > eocd || view.getUint32(p, true) !== CDH)
        throw unreadable('corrupt ZIP archive (bad central directory)');
      const flags = view.getUint16(p + 8, true);
      const method = view.getUint16(p + 10, true);
      const compressedSize = view.getUint32(p + 20, true);
      const size = view.getUint32(p + 24, true);
      const nameLength = view.getUint16(p + 28, true);
      const extraLength = view.getUint16(p + 30, true);
      const commentLength = view.getUint16(p + 32, true);
      const localOffset = view.getUint32(p + 42, true);
      const name = decoder.decode(data.subarray(p + 46, p + 46 + nameLength));
      p += 46 + nameLength + extraLength + commentLength;
      if (flags & 1) throw unreadable('encrypted documents are not supported');
      declared += size;
      if (declared > limits.maxUncompressedBytes) {
        throw tooLarge(`archive expands beyond the limit of ${limits.maxUncompressedBytes} bytes`);
      }
      if (!name.endsWith('/')) entries.set(name, { name, method, compressedSize, size, localOffset });
    }
    return new ZipArchive(data, entries, limits);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The inflated bytes of an entry, or undefined when the archive has no such entry. */
  async read(name: string): Promise<Uint8Array | undefined> {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    const view = new DataView(this.data.buffer, this.data.byteOffset, this.data.byteLength);
    const at = entry.localOffset;
    if (at + 30 > this.data.byteLength || view.getUint32(at, true) !== LFH) {
      throw unreadable(`corrupt ZIP archive (bad local header for ${name})`);
    }
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const end = start + entry.compressedSize;
    if (end > this.data.byteLength) throw unreadable(`corrupt ZIP archive (${name} is truncated)`);
    const raw = this.data.subarray(start, end);

    if (entry.method === 0) {
      this.count(raw.byteLength);
      return raw;
    }
    if (entry.method !== 8) throw unreadable(`unsupported ZIP compression method ${entry.method} (${name})`);

    const out: Uint8Array[] = [];
    let size = 0;
    let over = false;
    // An entry is held in memory only up to the size it declares: one that lies stops there.
    let lied = false;
    const inflate = new Inflate((chunk) => {
      size += chunk.byteLength;
      if (size > entry.size) lied = true;
      else if (this.inflated + size > this.limits.maxUncompressedBytes) over = true;
      else out.push(chunk);
    });
    try {
      for (let i = 0; i < raw.byteLength && !over && !lied; i += CHUNK) {
        inflate.push(raw.subarray(i, i + CHUNK), i + CHUNK >= raw.byteLength);
        // A compressed chunk may expand a thousandfold: give the loop a turn now and then.
        if (i > 0 && i % (16 * CHUNK) === 0) await yieldToLoop();
      }
    } catch (err) {
      throw unreadable(`corrupt ZIP archive (cannot inflate ${name})`, err);
    }
    if (lied) throw unreadable(`corrupt ZIP archive (${name} is not the size it declares)`);
    if (over) throw tooLarge(`archive expands beyond the limit of ${this.limits.maxUncompressedBytes} bytes`);
    if (size !== entry.size) throw unreadable(`corrupt ZIP archive (${name} is not the size it declares)`);
    this.count(size);
    return Buffer.concat(out, size);
  }

  async readText(name: string): Promise<string | undefined> {
    const bytes = await this.read(name);
    return bytes && new TextDecoder().decode(bytes);
  }

  /** Inflates every entry (within the limits), e.g. to hand a checked copy to another library. */
  async readAll(): Promise<Record<string, Uint8Array>> {
    const files: Record<string, Uint8Array> = {};
    for (const name of this.entries.keys()) {
      files[name] = (await this.read(name))!;
      await yieldToLoop();
    }
    return files;
  }

  private count(bytes: number): void {
    this.inflated += bytes;
    if (this.inflated > this.limits.maxUncompressedBytes) {
      throw tooLarge(`archive expands beyond the limit of ${this.limits.maxUncompressedBytes} bytes`);
    }
  }
}
