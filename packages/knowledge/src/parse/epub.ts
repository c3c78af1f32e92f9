import { posix } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { unreadable } from './errors';
import { htmlElementText, htmlToText } from './html';
import { decodeText } from './text';
import type { DocumentSection, FormatParser } from './types';
import { attrsOf, childrenOf, firstText, parseXml, tagOf, type XmlNode } from './xml';
import { ZipArchive } from './zip';

const CHAPTER_TYPES = new Set(['application/xhtml+xml', 'text/html']);
/** A chapter's title: its first heading, else its `<title>`. */
const HEADING = /<h[1-3][^>]*>([\s\S]*?)<\/h[1-3]>/i;
const TITLE = /<title[^>]*>([\s\S]*?)<\/title>/i;

/** The elements of an OPF package with this local name (`item`, `opf:item`), as their attributes. */
function elements(nodes: XmlNode[], local: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === undefined || tag === '#text') continue;
    if (tag === local || tag.endsWith(`:${local}`)) found.push(attrsOf(node));
    found.push(...elements(childrenOf(node), local));
  }
  return found;
}

/** A manifest `href` as an archive entry name: relative to the package file, percent-decoded, no fragment. */
function entryName(base: string, href: string): string {
  const path = href.split('#')[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape is kept as written.
  }
  return posix.normalize(posix.join(base, decoded)).replace(/^\/+/, '');
}

/** The package (OPF) file named by META-INF/container.xml, else the first .opf in the archive. */
async function packagePath(zip: ZipArchive): Promise<string> {
  const container = await zip.readText('META-INF/container.xml');
  const named = container && elements(parseXml(container), 'rootfile')[0]?.['full-path'];
  if (named && zip.has(named)) return named;
  const found = [...zip.entries.keys()].find((name) => name.toLowerCase().endsWith('.opf'));
  if (!found) throw unreadable('EPUB without a package document (.opf)');
  return found;
}

/**
 * EPUB: the chapters of the reading order (the package's spine; non-linear items such as a cover and
 * the navigation document left out), each read as HTML, one section per chapter titled by its first
 * heading. DRM-encrypted chapters cannot be read: such a book is refused.
 */
export const parseEpub: FormatParser = async ({ data, limits }) => {
  const zip = ZipArchive.open(data, limits);
  const opfPath = await packagePath(zip);
  const opf = parseXml((await zip.readText(opfPath)) ?? '');
  const base = posix.dirname(opfPath);
  const manifest = new Map(elements(opf, 'item').map((item) => [item.id ?? '', item]));
  const encrypted = await encryptedEntries(zip);

  const sections: DocumentSection[] = [];
  for (const ref of elements(opf, 'itemref')) {
    const item = manifest.get(ref.idref ?? '');
    if (!item?.href || ref.linear === 'no') continue;
    if (!CHAPTER_TYPES.has(item['media-type'] ?? '') || /\bnav\b/.test(item.properties ?? '')) continue;
    const name = entryName(base, item.href);
    if (encrypted.has(name)) throw unreadable('DRM-protected EPUB (its chapters are encrypted)');
    const bytes = await zip.read(name);
    if (!bytes) continue;
    const html = decodeText(bytes);
    const text = htmlToText(html);
    if (text) {
      const title = htmlElementText(html, HEADING) ?? htmlElementText(html, TITLE);
      sections.push({ ...(title ? { title } : {}), text });
    }
    await yieldToLoop();
  }
  if (sections.length === 0 && encrypted.size > 0) throw unreadable('DRM-protected EPUB');
  const title = firstText(opf, 'dc:title')?.trim();
  return {
    text: sections.map((s) => s.text).join('\n\n'),
    sections,
    metadata: { ...(title ? { title } : {}), chapters: sections.length, bytes: data.byteLength },
  };
};

/**
 * The entries META-INF/encryption.xml says are encrypted, fonts left out (publishers obfuscate
 * embedded fonts; the text stays readable).
 */
async function encryptedEntries(zip: ZipArchive): Promise<Set<string>> {
  const xml = await zip.readText('META-INF/encryption.xml');
  if (!xml) return new Set();
  return new Set(
    elements(parseXml(xml), 'CipherReference')
      .map((ref) => entryName('', ref.URI ?? ''))
      .filter((name) => name && !/\.(otf|ttf|woff2?)$/i.test(name)),
  );
}
