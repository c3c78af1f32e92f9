import { z } from 'zod';
import { bool, choice, defineNode, jsonObject, num, options, text } from '../fields';

export const gitbookLoaderNode = defineNode({
  type: 'gitbook_loader',
  label: 'GitBook loader',
  category: 'loaders',
  description: 'Loads the pages of a GitBook site as documents.',
  fields: z.object({ url: text(), load_all_paths: bool(false) }).prefault({}),
  fieldMeta: [
    { name: 'url', label: 'URL', kind: 'text', required: true, placeholder: 'https://docs.example.com' },
    {
      name: 'load_all_paths',
      label: 'Load every page',
      kind: 'boolean',
      required: false,
      help: 'Follow the sitemap instead of loading the one page.',
    },
  ],
  outputs: ['documents'],
});

export const notionLoaderNode = defineNode({
  type: 'notion_loader',
  label: 'Notion database loader',
  category: 'loaders',
  description: 'Loads the pages of a Notion database as documents.',
  fields: z
    .object({
      integration_token: text(),
      database_id: text(),
      filter_object: jsonObject(),
      request_timeout_sec: num(10, 1, 300),
    })
    .prefault({}),
  fieldMeta: [
    { name: 'integration_token', label: 'Integration token', kind: 'secret', required: true },
    { name: 'database_id', label: 'Database id', kind: 'text', required: true },
    {
      name: 'filter_object',
      label: 'Filter',
      kind: 'json',
      required: false,
      help: 'A Notion database query filter object; empty loads every page.',
    },
    { name: 'request_timeout_sec', label: 'Request timeout (s)', kind: 'number', required: false, min: 1 },
  ],
  outputs: ['documents'],
});

export const figmaLoaderNode = defineNode({
  type: 'figma_loader',
  label: 'Figma loader',
  category: 'loaders',
  description: 'Loads the nodes of a Figma file as documents.',
  fields: z.object({ access_token: text(), file_key: text(), node_ids: text(), toolId: text() }).prefault({}),
  fieldMeta: [
    {
      name: 'toolId',
      label: 'Figma tool',
      kind: 'credential',
      required: false,
      help: 'A configured Figma tool holding the access token; or give the token below.',
    },
    { name: 'access_token', label: 'Access token', kind: 'secret', required: false },
    { name: 'file_key', label: 'File key', kind: 'text', required: true },
    {
      name: 'node_ids',
      label: 'Node ids',
      kind: 'text',
      required: false,
      help: 'Comma-separated; empty loads the whole file.',
    },
  ],
  outputs: ['documents'],
});

export const webScraperNode = defineNode({
  type: 'web_scraper',
  label: 'Web scraper',
  category: 'loaders',
  description: 'Loads a web page as a document of text.',
  fields: z.object({ url: text(), ignore_links: bool(true), ignore_images: bool(true) }).prefault({}),
  fieldMeta: [
    { name: 'url', label: 'URL', kind: 'text', required: true, placeholder: 'https://example.com' },
    { name: 'ignore_links', label: 'Ignore links', kind: 'boolean', required: false },
    { name: 'ignore_images', label: 'Ignore images', kind: 'boolean', required: false },
  ],
  outputs: ['documents', 'content'],
});

export const sitemapScraperNode = defineNode({
  type: 'sitemap_scraper',
  label: 'Sitemap scraper',
  category: 'loaders',
  description: 'Loads the pages listed in a sitemap as documents.',
  fields: z.object({ url: text(), filter_urls: text(), max_pages: num(50, 1, 1000) }).prefault({}),
  fieldMeta: [
    {
      name: 'url',
      label: 'Sitemap URL',
      kind: 'text',
      required: true,
      placeholder: 'https://example.com/sitemap.xml',
    },
    {
      name: 'filter_urls',
      label: 'Only URLs containing',
      kind: 'text',
      required: false,
      help: 'Comma-separated parts of URLs to keep; empty keeps all.',
    },
    { name: 'max_pages', label: 'Maximum pages', kind: 'number', required: false, min: 1, max: 1000 },
  ],
  outputs: ['documents'],
});

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export const apiRequestNode = defineNode({
  type: 'api_request',
  label: 'API request',
  category: 'loaders',
  description: 'Calls an HTTP API and gives its status, headers and body (parsed when JSON).',
  fields: z
    .object({
      method: choice(METHODS, 'GET'),
      url: text(),
      headers: jsonObject(),
      query_params: jsonObject(),
      body: text(),
      timeout_sec: num(30, 1, 300),
      fail_on_error_status: bool(true),
    })
    .prefault({}),
  fieldMeta: [
    { name: 'method', label: 'Method', kind: 'select', required: false, options: options(...METHODS) },
    { name: 'url', label: 'URL', kind: 'text', required: true, placeholder: 'https://api.example.com/items' },
    { name: 'headers', label: 'Headers', kind: 'json', required: false },
    { name: 'query_params', label: 'Query parameters', kind: 'json', required: false },
    { name: 'body', label: 'Body', kind: 'textarea', required: false },
    { name: 'timeout_sec', label: 'Timeout (s)', kind: 'number', required: false, min: 1, max: 300 },
    {
      name: 'fail_on_error_status',
      label: 'Fail on 4xx/5xx',
      kind: 'boolean',
      required: false,
      help: 'Otherwise the status is given as an output.',
    },
  ],
  outputs: ['status', 'headers', 'body'],
});
