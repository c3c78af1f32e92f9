import { z } from 'zod';
import { bool, choice, defineNode, jsonObject, num, options, text } from '../fields';

export const gitbookLoaderNode = defineNode({
  type: 'gitbook_loader',
  label: 'nodeCatalog.nodes.gitbook_loader.label',
  category: 'loaders',
  description: 'nodeCatalog.nodes.gitbook_loader.description',
  fields: z.object({ url: text(), load_all_paths: bool(false) }).prefault({}),
  fieldMeta: [
    {
      name: 'url',
      label: 'nodeCatalog.fields.url',
      kind: 'text',
      required: true,
      placeholder: 'https://docs.example.com',
    },
    {
      name: 'load_all_paths',
      label: 'nodeCatalog.fields.loadAllPaths',
      kind: 'boolean',
      required: false,
      help: 'nodeCatalog.help.loadAllPaths',
    },
  ],
  outputs: ['documents'],
});

export const notionLoaderNode = defineNode({
  type: 'notion_loader',
  label: 'nodeCatalog.nodes.notion_loader.label',
  category: 'loaders',
  description: 'nodeCatalog.nodes.notion_loader.description',
  fields: z
    .object({
      integration_token: text(),
      database_id: text(),
      filter_object: jsonObject(),
      request_timeout_sec: num(10, 1, 300),
    })
    .prefault({}),
  fieldMeta: [
    {
      name: 'integration_token',
      label: 'nodeCatalog.fields.integrationToken',
      kind: 'secret',
      required: true,
    },
    { name: 'database_id', label: 'nodeCatalog.fields.databaseId', kind: 'text', required: true },
    {
      name: 'filter_object',
      label: 'nodeCatalog.fields.filterObject',
      kind: 'json',
      required: false,
      help: 'nodeCatalog.help.filterObject',
    },
    {
      name: 'request_timeout_sec',
      label: 'nodeCatalog.fields.requestTimeoutSec',
      kind: 'number',
      required: false,
      min: 1,
    },
  ],
  outputs: ['documents'],
});

export const figmaLoaderNode = defineNode({
  type: 'figma_loader',
  label: 'nodeCatalog.nodes.figma_loader.label',
  category: 'loaders',
  description: 'nodeCatalog.nodes.figma_loader.description',
  fields: z.object({ access_token: text(), file_key: text(), node_ids: text(), toolId: text() }).prefault({}),
  fieldMeta: [
    {
      name: 'toolId',
      label: 'nodeCatalog.fields.toolId',
      kind: 'credential',
      required: false,
      help: 'nodeCatalog.help.toolId',
    },
    { name: 'access_token', label: 'nodeCatalog.fields.accessToken', kind: 'secret', required: false },
    { name: 'file_key', label: 'nodeCatalog.fields.fileKey', kind: 'text', required: true },
    {
      name: 'node_ids',
      label: 'nodeCatalog.fields.nodeIds',
      kind: 'text',
      required: false,
      help: 'nodeCatalog.help.nodeIds',
    },
  ],
  outputs: ['documents'],
});

export const webScraperNode = defineNode({
  type: 'web_scraper',
  label: 'nodeCatalog.nodes.web_scraper.label',
  category: 'loaders',
  description: 'nodeCatalog.nodes.web_scraper.description',
  fields: z.object({ url: text(), ignore_links: bool(true), ignore_images: bool(true) }).prefault({}),
  fieldMeta: [
    {
      name: 'url',
      label: 'nodeCatalog.fields.url',
      kind: 'text',
      required: true,
      placeholder: 'https://example.com',
    },
    { name: 'ignore_links', label: 'nodeCatalog.fields.ignoreLinks', kind: 'boolean', required: false },
    { name: 'ignore_images', label: 'nodeCatalog.fields.ignoreImages', kind: 'boolean', required: false },
  ],
  outputs: ['documents', 'content'],
});

export const sitemapScraperNode = defineNode({
  type: 'sitemap_scraper',
  label: 'nodeCatalog.nodes.sitemap_scraper.label',
  category: 'loaders',
  description: 'nodeCatalog.nodes.sitemap_scraper.description',
  fields: z.object({ url: text(), filter_urls: text(), max_pages: num(50, 1, 1000) }).prefault({}),
  fieldMeta: [
    {
      name: 'url',
      label: 'nodeCatalog.fields.url_sitemapScraper',
      kind: 'text',
      required: true,
      placeholder: 'https://example.com/sitemap.xml',
    },
    {
      name: 'filter_urls',
      label: 'nodeCatalog.fields.filterUrls',
      kind: 'text',
      required: false,
      help: 'nodeCatalog.help.filterUrls',
    },
    {
      name: 'max_pages',
      label: 'nodeCatalog.fields.maxPages',
      kind: 'number',
      required: false,
      min: 1,
      max: 1000,
    },
  ],
  outputs: ['documents'],
});

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export const apiRequestNode = defineNode({
  type: 'api_request',
  label: 'nodeCatalog.nodes.api_request.label',
  category: 'loaders',
  description: 'nodeCatalog.nodes.api_request.description',
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
    {
      name: 'method',
      label: 'nodeCatalog.fields.method',
      kind: 'select',
      required: false,
      options: options(...METHODS),
    },
    {
      name: 'url',
      label: 'nodeCatalog.fields.url',
      kind: 'text',
      required: true,
      placeholder: 'https://api.example.com/items',
    },
    { name: 'headers', label: 'nodeCatalog.fields.headers', kind: 'json', required: false },
    { name: 'query_params', label: 'nodeCatalog.fields.queryParams', kind: 'json', required: false },
    { name: 'body', label: 'nodeCatalog.fields.body', kind: 'textarea', required: false },
    {
      name: 'timeout_sec',
      label: 'nodeCatalog.fields.timeoutSec',
      kind: 'number',
      required: false,
      min: 1,
      max: 300,
    },
    {
      name: 'fail_on_error_status',
      label: 'nodeCatalog.fields.failOnErrorStatus',
      kind: 'boolean',
      required: false,
      help: 'nodeCatalog.help.failOnErrorStatus',
    },
  ],
  outputs: ['status', 'headers', 'body'],
});
