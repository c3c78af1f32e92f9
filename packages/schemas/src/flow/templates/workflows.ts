import { link, ref, type FlowTemplate, templateNode } from './build';

function documentIndexing(): FlowTemplate {
  const input = templateNode('input', 'di01', { col: 0 }, [
    { name: 'url', type: 'string', isMandatory: true },
  ]);
  const scraper = templateNode('web_scraper', 'di01', { col: 1 }, { url: ref(input, 'url') });
  const splitter = templateNode(
    'recursive_splitter',
    'di01',
    { col: 2 },
    {
      documents_to_split: ref(scraper, 'documents'),
      chunk_size: 1000,
      chunk_overlap: 100,
    },
  );
  const insert = templateNode(
    'vector_store_insert',
    'di01',
    { col: 3 },
    {
      documents: ref(splitter, 'documents'),
      mode: 'collection',
    },
  );
  const output = templateNode(
    'output',
    'di01',
    { col: 4 },
    {
      response: `Indexed ${ref(insert, 'inserted')} chunks of ${ref(input, 'url')}.`,
      structured_output: { inserted: ref(insert, 'inserted') },
    },
  );
  return {
    id: 'document-indexing',
    name: 'flowTemplates.document-indexing.name',
    type: 'workflow',
    description: 'flowTemplates.document-indexing.description',
    configuration: {
      nodes: [input, scraper, splitter, insert, output],
      edges: [link(input, scraper), link(scraper, splitter), link(splitter, insert), link(insert, output)],
    },
  };
}

function knowledgeBaseUpdater(): FlowTemplate {
  const input = templateNode('input', 'ku01', { col: 0 }, [
    { name: 'sitemap_url', type: 'string', isMandatory: true },
  ]);
  const remove = templateNode(
    'vector_store_delete',
    'ku01',
    { col: 1, row: 1 },
    {
      deletion_condition_expr: `sitemap == "${ref(input, 'sitemap_url')}"`,
      mode: 'collection',
      continue_on_failure: true,
    },
    { label: 'nodeCatalog.templateNodes.deletePreviousVersion' },
  );
  const scraper = templateNode('sitemap_scraper', 'ku01', { col: 1 }, { url: ref(input, 'sitemap_url') });
  const splitter = templateNode(
    'recursive_splitter',
    'ku01',
    { col: 2 },
    {
      documents_to_split: ref(scraper, 'documents'),
      chunk_size: 1000,
      chunk_overlap: 100,
    },
  );
  const tag = templateNode(
    'metadata_update',
    'ku01',
    { col: 3 },
    {
      documents: ref(splitter, 'documents'),
      metadata: { sitemap: ref(input, 'sitemap_url') },
    },
    { label: 'nodeCatalog.templateNodes.tagWithTheSitemap' },
  );
  const insert = templateNode(
    'vector_store_insert',
    'ku01',
    { col: 4 },
    {
      documents: ref(tag, 'documents'),
      mode: 'collection',
      smart_insertion: true,
    },
  );
  const output = templateNode(
    'output',
    'ku01',
    { col: 5 },
    {
      response: `Removed ${ref(remove, 'deleted')} old records and stored ${ref(insert, 'inserted')} chunks.`,
      structured_output: { deleted: ref(remove, 'deleted'), inserted: ref(insert, 'inserted') },
    },
  );
  return {
    id: 'knowledge-base-updater',
    name: 'flowTemplates.knowledge-base-updater.name',
    type: 'workflow',
    description: 'flowTemplates.knowledge-base-updater.description',
    configuration: {
      nodes: [input, remove, scraper, splitter, tag, insert, output],
      edges: [
        link(input, remove),
        link(input, scraper),
        link(scraper, splitter),
        link(splitter, tag),
        link(tag, insert),
        link(remove, insert),
        link(insert, output),
      ],
    },
  };
}

export const workflowTemplates = (): FlowTemplate[] => [documentIndexing(), knowledgeBaseUpdater()];
