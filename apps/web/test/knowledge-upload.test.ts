import type { RagDocument, Tool } from '@atelier/schemas';
import { isFolderClutter } from '@atelier/schemas/constants';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatBytes, formatScore } from '../src/features/knowledge/format';
import { isIngesting } from '../src/features/knowledge/queries';
import { settingsBody, validateSettingsForm } from '../src/features/knowledge/settings-form';
import { toolItemsFor, toolTypeOfNode } from '../src/features/knowledge/tool-pickers';
import { filesOfEntries, type DroppedEntry } from '../src/features/knowledge/dropped-files';
import {
  asItem,
  checkFiles,
  fractionOf,
  perFileProgress,
  sendFiles,
  uploadAll,
  uploadFiles,
  useUploads,
  type XhrLike,
} from '../src/features/knowledge/upload';

/** A scripted XMLHttpRequest: reports progress, then answers each send with the next status, body and headers. */
function fakeXhr(answers: { status: number; body: unknown; headers?: Record<string, string> }[]) {
  const sent: { url: string; headers: Record<string, string>; form: FormData }[] = [];
  const factory = (): XhrLike => {
    let answered: Record<string, string> = {};
    const xhr: XhrLike & { url: string; headers: Record<string, string> } = {
      url: '',
      headers: {},
      status: 0,
      responseText: '',
      getResponseHeader: (name) => answered[name.toLowerCase()] ?? null,
      upload: { onprogress: null },
      onload: null,
      onerror: null,
      onabort: null,
      open: (_method, url) => {
        xhr.url = url;
      },
      setRequestHeader: (name, value) => {
        xhr.headers[name] = value;
      },
      abort: () => xhr.onabort?.(),
      send: (form) => {
        sent.push({ url: xhr.url, headers: xhr.headers, form });
        const answer = answers.shift() ?? { status: 500, body: null };
        queueMicrotask(() => {
          xhr.upload.onprogress?.({ loaded: 50, total: 100 });
          xhr.upload.onprogress?.({ loaded: 100, total: 100 });
          xhr.status = answer.status;
          xhr.responseText = JSON.stringify(answer.body);
          answered = answer.headers ?? {};
          xhr.onload?.();
        });
      },
    };
    return xhr;
  };
  return { factory, sent };
}

const file = (name: string, size = 10) => new File(['x'.repeat(size)], name, { type: 'text/plain' });
const item = (name: string, size = 10) => asItem(file(name, size));
const doc = (status: RagDocument['status']) => ({ status }) as RagDocument;

beforeEach(() => useUploads.setState({ uploads: [] }));

describe('upload', () => {
  it('refuses files of other types (an Apple format saying what to save it as) and files over 100 MB; takes .doc, .xls, .ppt, .rtf and .msg', () => {
    const big = file('big.pdf');
    Object.defineProperty(big, 'size', { value: 101 * 1024 * 1024 });
    const { accepted, rejected } = checkFiles(
      [
        file('a.PDF'),
        file('b.md'),
        file('c.exe'),
        file('d.tsv'),
        file('e.xlsx'),
        file('f.xls'),
        file('g.doc'),
        file('h.msg'),
        file('i.PPT'),
        file('j.rtf'),
        file('k.pages'),
        big,
      ].map(asItem),
    );
    expect(accepted.map((f) => f.name)).toEqual([
      'a.PDF',
      'b.md',
      'd.tsv',
      'e.xlsx',
      'f.xls',
      'g.doc',
      'h.msg',
      'i.PPT',
      'j.rtf',
    ]);
    expect(rejected.map(({ file: _file, name, ...why }) => [name, why])).toEqual([
      ['c.exe', { reason: 'type' }],
      ['k.pages', { reason: 'type', saveAs: '.docx' }],
      ['big.pdf', { reason: 'size' }],
    ]);
  });

  it('progress is a fraction from 0 to 1', () => {
    expect(fractionOf(25, 100)).toBe(0.25);
    expect(fractionOf(5, 0)).toBe(0);
    expect(fractionOf(150, 100)).toBe(1);
  });

  it('lays the bytes sent over the files in order', () => {
    expect(perFileProgress([100, 300], 0, 400)).toEqual([0, 0]);
    expect(perFileProgress([100, 300], 50, 400)).toEqual([0.5, 0]);
    expect(perFileProgress([100, 300], 250, 400)).toEqual([1, 0.5]);
    expect(perFileProgress([100, 300], 400, 400)).toEqual([1, 1]);
    expect(perFileProgress([0, 10], 5, 10)).toEqual([1, 0.5]);
  });

  it('sends one multipart `file` part per file with the bearer token and reports the bytes sent', async () => {
    const { factory, sent } = fakeXhr([{ status: 202, body: { documents: [] } }]);
    const progress: [number, number][] = [];
    const answer = await sendFiles({
      url: 'http://api/rag_collections/c1/documents',
      files: [item('notes.txt'), { file: file('leave.pdf'), name: 'policies/2024/leave.pdf' }],
      token: 'tok',
      onProgress: (loaded, total) => progress.push([loaded, total]),
      xhr: factory,
    });
    expect(answer).toEqual({ status: 202, body: { documents: [] } });
    expect(progress).toEqual([
      [50, 100],
      [100, 100],
    ]);
    expect(sent[0]!.headers.authorization).toBe('Bearer tok');
    // Each part named as its document will be: a folder's file by its path in it.
    expect((sent[0]!.form.getAll('file') as File[]).map((f) => f.name)).toEqual([
      'notes.txt',
      'policies/2024/leave.pdf',
    ]);
  });

  it('a 401 refreshes the session once and sends again with the new token', async () => {
    const { factory, sent } = fakeXhr([
      { status: 401, body: { detail: 'expired' } },
      { status: 202, body: { documents: [{ id: 'd1' }] } },
    ]);
    let token = 'old';
    const refresh = vi.fn(async () => {
      token = 'new';
    });
    const docs = await uploadFiles(
      { baseUrl: 'http://api', token: () => token, refresh, xhr: factory },
      'c 1',
      [item('a.txt')],
      () => {},
    );
    expect(docs).toEqual({ documents: [{ id: 'd1' }], skipped: [] });
    expect(refresh).toHaveBeenCalledOnce();
    expect(sent.map((s) => s.headers.authorization)).toEqual(['Bearer old', 'Bearer new']);
    expect(sent[0]!.url).toBe('http://api/rag_collections/c%201/documents');
  });

  it("a refused upload throws the API's detail", async () => {
    const { factory } = fakeXhr([{ status: 413, body: { detail: 'File too large', code: 'too_large' } }]);
    await expect(
      uploadFiles(
        { baseUrl: 'http://api', token: () => 't', refresh: async () => {}, xhr: factory },
        'c1',
        [item('a.txt')],
        () => {},
      ),
    ).rejects.toThrow('File too large');
  });

  it('sends at most 20 files a request and tracks every file until done or failed', async () => {
    const { factory, sent } = fakeXhr([
      { status: 202, body: { documents: [] } },
      { status: 400, body: { detail: 'Unsupported file', code: 'bad' } },
    ]);
    const onDone = vi.fn();
    const files = Array.from({ length: 21 }, (_, i) => item(`f${i}.txt`));
    await uploadAll(
      { baseUrl: 'http://api', token: () => 't', refresh: async () => {}, xhr: factory },
      'c1',
      files,
      onDone,
    );
    expect(sent.map((s) => s.form.getAll('file').length)).toEqual([20, 1]);
    const uploads = useUploads.getState().uploads;
    expect(uploads).toHaveLength(21);
    expect(uploads.slice(0, 20).every((u) => u.status === 'done' && u.progress === 1)).toBe(true);
    expect(uploads[20]).toMatchObject({ name: 'f20.txt', status: 'failed', error: 'Unsupported file' });
    expect(onDone).toHaveBeenCalledOnce();
  });

  it('an archive: what the API left out of it goes to onDone, with why', async () => {
    const skipped = [
      {
        filename: 'policies/logo.svg',
        code: 'unsupported_type' as const,
        detail: 'unsupported document type ".svg"',
      },
    ];
    const { factory, sent } = fakeXhr([{ status: 202, body: { documents: [{ id: 'd1' }], skipped } }]);
    const onDone = vi.fn();
    expect(checkFiles([item('policies.zip')]).accepted.map((f) => f.name)).toEqual(['policies.zip']);
    await uploadAll(
      { baseUrl: 'http://api', token: () => 't', refresh: async () => {}, xhr: factory },
      'c1',
      [item('policies.zip')],
      onDone,
    );
    expect((sent[0]!.form.getAll('file') as File[]).map((f) => f.name)).toEqual(['policies.zip']);
    expect(onDone).toHaveBeenCalledWith(skipped);
    expect(useUploads.getState().uploads[0]).toMatchObject({ name: 'policies.zip', status: 'done' });
  });

  it('a request turned away by the rate limit waits as the API says and is sent again', async () => {
    const limited = { status: 429, body: { detail: 'Too many requests.' }, headers: { 'retry-after': '7' } };
    const { factory, sent } = fakeXhr([
      limited,
      { status: 202, body: { documents: [] } },
      ...Array.from({ length: 11 }, () => limited),
    ]);
    const deps = { baseUrl: 'http://api', token: () => 't', refresh: async () => {}, xhr: factory };
    const waited: number[] = [];
    const states: string[] = [];
    const wait = async (seconds: number) => {
      waited.push(seconds);
      states.push(useUploads.getState().uploads[0]!.status);
    };
    await uploadAll(deps, 'c1', [item('a.txt')], () => {}, wait);
    expect(waited).toEqual([7]);
    expect(states).toEqual(['waiting']);
    expect(sent).toHaveLength(2);
    expect(useUploads.getState().uploads[0]).toMatchObject({ status: 'done' });
    // Turned away again and again, it fails after ten waits.
    useUploads.setState({ uploads: [] });
    await uploadAll(deps, 'c1', [item('b.txt')], () => {}, wait);
    expect(waited).toHaveLength(11);
    expect(useUploads.getState().uploads[0]).toMatchObject({ status: 'failed', error: 'Too many requests.' });
  });

  it("a folder's files are named by their path in it; its clutter is told apart", () => {
    const picked = new File(['x'], 'leave.pdf');
    Object.defineProperty(picked, 'webkitRelativePath', { value: 'policies/2024/leave.pdf' });
    expect(asItem(picked).name).toBe('policies/2024/leave.pdf');
    expect(asItem(file('alone.pdf')).name).toBe('alone.pdf');
    for (const name of [
      'docs/.DS_Store',
      'docs/.git/config',
      '__MACOSX/docs/a.pdf',
      'docs/Thumbs.db',
      'desktop.ini',
    ])
      expect(isFolderClutter(name), name).toBe(true);
    expect(isFolderClutter('docs/2024/report.v2.pdf')).toBe(false);
  });

  it('a dropped folder is walked through its subfolders, entries read until the reader has no more', async () => {
    const fileEntry = (path: string): DroppedEntry => ({
      isFile: true,
      isDirectory: false,
      name: path.split('/').pop()!,
      fullPath: path,
      file: (ok) => ok(file(path.split('/').pop()!)),
    });
    const folder = (path: string, ...batches: DroppedEntry[][]): DroppedEntry => ({
      isFile: false,
      isDirectory: true,
      name: path.split('/').pop()!,
      fullPath: path,
      createReader: () => {
        const left = [...batches];
        return { readEntries: (ok) => ok(left.shift() ?? []) };
      },
    });
    const tree = folder(
      '/policies',
      [
        fileEntry('/policies/handbook.pdf'),
        folder('/policies/2024', [fileEntry('/policies/2024/leave.pdf')]),
      ],
      [fileEntry('/policies/.DS_Store')],
    );
    const dropped = await filesOfEntries([tree, fileEntry('/notes.txt')]);
    expect(dropped).toMatchObject({ fromFolder: true, tooMany: false });
    expect(dropped.items.map((i) => [i.name, i.file.name])).toEqual([
      ['policies/handbook.pdf', 'handbook.pdf'],
      ['policies/2024/leave.pdf', 'leave.pdf'],
      ['policies/.DS_Store', '.DS_Store'],
      ['notes.txt', 'notes.txt'],
    ]);
    // A folder of more than 500 files is not walked to its end.
    const many = Array.from({ length: 600 }, (_, i) => fileEntry(`/big/f${i}.txt`));
    const big = await filesOfEntries([folder('/big', many.slice(0, 300), many.slice(300))]);
    expect(big).toMatchObject({ tooMany: true });
    expect(big.items).toHaveLength(500);
  });

  it('the documents list is polled while one is queued or processing', () => {
    expect(isIngesting([doc('ready'), doc('processing')])).toBe(true);
    expect(isIngesting([doc('queued')])).toBe(true);
    expect(isIngesting([doc('ready'), doc('failed')])).toBe(false);
    expect(isIngesting(undefined)).toBe(false);
  });

  it('scores show two decimals, sizes a unit', () => {
    expect(formatScore(0.87654)).toBe('0.88');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(100 * 1024 * 1024)).toBe('100 MB');
  });
});

describe('connector and tool settings', () => {
  const fields = [
    { name: 'url', label: 'URL', required: true, secret: false, placeholder: null },
    { name: 'api_key', label: 'API key', required: true, secret: true, placeholder: null },
  ];

  it('a secret left empty on edit is kept: not required and not sent', () => {
    const form = { name: 'Q', description: '', settings: { url: 'http://q:6333', api_key: '' } };
    expect(validateSettingsForm(fields, form, true)).toEqual({});
    expect(validateSettingsForm(fields, form, false)).toEqual({ 'setting.api_key': 'common.required' });
    expect(settingsBody(fields, form)).toEqual({ url: 'http://q:6333' });
  });

  it('a Figma loader picks Figma tools only', () => {
    expect(toolTypeOfNode('figma_loader')).toBe('figma');
    expect(toolTypeOfNode('llm')).toBeNull();
    const tools = [
      { tool_id: 't1', name: 'Design', type: 'figma' },
      { tool_id: 't2', name: 'Tickets', type: 'jira' },
    ] as Tool[];
    expect(toolItemsFor('figma_loader', tools)).toEqual([{ id: 't1', name: 'Design' }]);
    expect(toolItemsFor('figma_loader', undefined)).toBeUndefined();
  });
});
