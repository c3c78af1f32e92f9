import { type FakeFigmaFile, type FakeServer, startFakeFigma } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocuments, type LoaderTool } from '../src/loaders/index';
import { loaderDeps, req } from './loaders-helpers';

const KEY = 'AbCdEf1234567890';
const TOKEN = 'figd_token';

const FILE: FakeFigmaFile = {
  name: 'Checkout',
  components: { 'c:1': { name: 'Button/Primary', description: 'Main call to action' } },
  document: {
    id: '0:0',
    name: 'Document',
    type: 'DOCUMENT',
    children: [
      {
        id: '0:1',
        name: 'Flows',
        type: 'CANVAS',
        children: [
          {
            id: '1:2',
            name: 'Cart',
            type: 'FRAME',
            children: [
              { id: '1:3', name: 'Heading', type: 'TEXT', characters: 'Your cart' },
              { id: '1:4', name: 'Background', type: 'RECTANGLE' },
              {
                id: '1:5',
                name: 'Pay button',
                type: 'INSTANCE',
                componentId: 'c:1',
                children: [{ id: '1:6', name: 'Label', type: 'TEXT', characters: 'Pay now' }],
              },
              { id: '1:7', name: 'Hidden note', type: 'TEXT', characters: 'internal', visible: false },
            ],
          },
          {
            id: '1:8',
            name: 'Receipt',
            type: 'FRAME',
            children: [{ id: '1:9', name: 'Thanks', type: 'TEXT', characters: 'Thank you!\nSee you soon' }],
          },
        ],
      },
      {
        id: '0:2',
        name: 'Library',
        type: 'CANVAS',
        children: [{ id: 'c:1', name: 'Button/Primary', type: 'COMPONENT', children: [] }],
      },
    ],
  },
};

let figma: FakeServer;
beforeAll(async () => {
  figma = await startFakeFigma({ token: TOKEN, files: { [KEY]: FILE } });
});
afterAll(() => figma.close());

const tools: Record<string, LoaderTool> = {
  good: { type: 'figma', settings: {}, secret: TOKEN },
  jira: { type: 'jira', settings: {}, secret: 'x' },
  empty: { type: 'figma', settings: {}, secret: null },
};
const load = (options: { accessToken?: string; toolId?: string; nodeIds?: string[]; fileKey?: string }) =>
  loadDocuments(
    req({
      loader: 'figma',
      fileKey: options.fileKey ?? KEY,
      nodeIds: options.nodeIds ?? [],
      accessToken: options.accessToken,
      toolId: options.toolId,
    }),
    loaderDeps({ endpoints: { figma: figma.url } }, tools),
  );

describe('Figma loader', () => {
  it('gives one document per top-level frame: kinds, names, text layers and components used', async () => {
    const docs = await load({ accessToken: TOKEN });
    expect(docs.map((d) => d.metadata.title)).toEqual(['Cart', 'Receipt', 'Button/Primary']);
    expect(docs[0]!.pageContent).toBe(
      'Frame: Cart\n  Text: Your cart\n  Instance of Button/Primary: Pay button\n    Text: Pay now',
    );
    expect(docs[1]!.pageContent).toBe('Frame: Receipt\n  Text: Thank you!\n    See you soon');
    expect(docs[2]!.pageContent).toBe('Component: Button/Primary\n  Description: Main call to action');
    expect(docs[0]!.metadata).toEqual({
      source: `https://www.figma.com/file/${KEY}?node-id=1%3A2`,
      title: 'Cart',
      file_key: KEY,
      file_name: 'Checkout',
      node_id: '1:2',
      node_type: 'FRAME',
      page: 'Flows',
    });
    expect(figma.requests.at(-1)).toMatchObject({
      path: `/v1/files/${KEY}`,
      headers: { 'x-figma-token': TOKEN },
    });
  });

  it('loads only the nodes asked for (ids as in URLs, 1-8, too), skipping unknown ones', async () => {
    const docs = await load({
      accessToken: TOKEN,
      nodeIds: ['1-8', '9:9'],
      fileKey: `https://www.figma.com/design/${KEY}/Checkout?node-id=1-8`,
    });
    expect(docs.map((d) => d.pageContent)).toEqual(['Frame: Receipt\n  Text: Thank you!\n    See you soon']);
    expect(figma.requests.at(-1)!.path).toBe(`/v1/files/${KEY}/nodes?ids=1%3A8%2C9%3A9`);
    await expect(load({ accessToken: TOKEN, nodeIds: ['9:9'] })).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });

  it('takes the token from the Figma tool when none is given', async () => {
    expect(await load({ toolId: 'good' })).toHaveLength(3);
    await expect(load({ toolId: 'gone' })).rejects.toMatchObject({ code: 'tool_not_found' });
    await expect(load({ toolId: 'jira' })).rejects.toMatchObject({
      message: 'The tool of this loader is a jira tool, not a Figma tool.',
    });
    await expect(load({ toolId: 'empty' })).rejects.toMatchObject({
      code: 'missing_token',
      message: 'The Figma tool holds no access token.',
    });
  });

  it('says when the token is missing or refused, or the file unknown', async () => {
    const before = figma.requests.length;
    await expect(load({})).rejects.toMatchObject({ status: 422, code: 'missing_token' });
    expect(figma.requests.length).toBe(before);
    await expect(load({ accessToken: 'wrong' })).rejects.toMatchObject({
      status: 401,
      message: 'The Figma access token was refused.',
    });
    await expect(load({ accessToken: TOKEN, fileKey: 'Unknown1234567' })).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
    await expect(load({ accessToken: TOKEN, fileKey: 'bad key!' })).rejects.toMatchObject({
      status: 422,
      code: 'invalid_file_key',
    });
  });
});
