import { asItem, MAX_FOLDER_FILES, type UploadItem } from './upload';

/** What a drop gives of the File and Directory Entries API (every current browser has it). */
export interface DroppedEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  /** From the drop's root: `/policies/2024/leave.pdf`. */
  fullPath: string;
  file?(ok: (file: File) => void, fail: (error: unknown) => void): void;
  createReader?(): {
    readEntries(ok: (entries: DroppedEntry[]) => void, fail: (error: unknown) => void): void;
  };
}

export interface Dropped {
  items: UploadItem[];
  /** Whether a folder was dropped (its clutter is left out and its refusals counted, not listed). */
  fromFolder: boolean;
  /** More than `MAX_FOLDER_FILES` files: the walk stopped there. */
  tooMany: boolean;
}

/**
 * The files of a drop, each named as its document will be: a dropped file by its own name, a dropped
 * folder's files (in all its subfolders) by their path from the folder's parent (`policies/2024/leave.pdf`).
 * The entries are taken at once, while the drop event lasts (the browser empties the transfer after it);
 * a browser without entries gives the dropped files alone.
 */
export function droppedFiles(transfer: DataTransfer): Promise<Dropped> {
  const entries = Array.from(transfer.items ?? []).flatMap((item) => {
    const entry = item.kind === 'file' ? item.webkitGetAsEntry?.() : null;
    return entry ? [entry as unknown as DroppedEntry] : [];
  });
  if (entries.length === 0) {
    return Promise.resolve({
      items: Array.from(transfer.files).map(asItem),
      fromFolder: false,
      tooMany: false,
    });
  }
  return filesOfEntries(entries);
}

/** The files of dropped entries, folders walked (at most `MAX_FOLDER_FILES` and one more, to tell there are too many). */
export async function filesOfEntries(entries: readonly DroppedEntry[]): Promise<Dropped> {
  const items: UploadItem[] = [];
  const full = () => items.length > MAX_FOLDER_FILES;
  async function walk(entry: DroppedEntry): Promise<void> {
    if (full()) return;
    if (entry.isFile && entry.file) {
      const file = await new Promise<File>((ok, fail) => entry.file!(ok, fail));
      items.push({ file, name: entry.fullPath.replace(/^\/+/, '') || file.name });
      return;
    }
    if (!entry.isDirectory || !entry.createReader) return;
    const reader = entry.createReader();
    // A reader answers a folder's entries a hundred or so at a time, then nothing.
    for (;;) {
      const some = await new Promise<DroppedEntry[]>((ok, fail) => reader.readEntries(ok, fail));
      if (some.length === 0 || full()) return;
      for (const child of some) await walk(child);
    }
  }
  for (const entry of entries) await walk(entry);
  return {
    items: items.slice(0, MAX_FOLDER_FILES),
    fromFolder: entries.some((e) => e.isDirectory),
    tooMany: full(),
  };
}
