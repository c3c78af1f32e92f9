export * from './db';
export * from './fake-provider';
export * from './fake-jira';
export {
  sitemapXml,
  startFakeWeb,
  type FakeHttpRequest,
  type FakeServer,
  type FakeWeb,
  type FakeWebRoute,
} from './fake-web';
export * from './fake-gitbook';
export * from './fake-notion';
export * from './fake-figma';
export * from './fake-qdrant';
