import type { NodeRegistry } from '../types';
import { agent } from './agent';
import { apiRequest } from './api-request';
import { calculatorTool } from './calculator-tool';
import { conditional } from './conditional';
import { dalle2 } from './dalle2';
import { dalle3 } from './dalle3';
import { figmaLoader } from './figma-loader';
import { gitbookLoader } from './gitbook-loader';
import { htmlSplitter } from './html-splitter';
import { input } from './input';
import { iteration } from './iteration';
import { jiraToolsNode } from './jira-tools';
import { knowledgeRetrieve } from './knowledge-retrieve';
import { llm } from './llm';
import { markdownSplitter } from './markdown-splitter';
import { metadataExtraction } from './metadata-extraction';
import { metadataUpdate } from './metadata-update';
import { multimodalLlm } from './multimodal-llm';
import { notionLoader } from './notion-loader';
import { ocr } from './ocr';
import { output } from './output';
import { recursiveSplitter } from './recursive-splitter';
import { reranker } from './reranker';
import { sitemapScraper } from './sitemap-scraper';
import { soraVideo } from './sora-video';
import { speechToText } from './speech-to-text';
import { textTool } from './text-tool';
import { textToSpeech } from './text-to-speech';
import { vectorStoreDelete } from './vector-store-delete';
import { vectorStoreInsert } from './vector-store-insert';
import { vectorStoreTool } from './vector-store-tool';
import { webScraper } from './web-scraper';

/** The behaviour of every node type of the catalog. */
export const NODE_REGISTRY: NodeRegistry = {
  input,
  output,
  llm,
  multimodal_llm: multimodalLlm,
  agent,
  dalle2,
  dalle3,
  text_to_speech: textToSpeech,
  speech_to_text: speechToText,
  ocr,
  sora_video: soraVideo,
  knowledge_retrieve: knowledgeRetrieve,
  reranker,
  vector_store_insert: vectorStoreInsert,
  vector_store_delete: vectorStoreDelete,
  metadata_extraction: metadataExtraction,
  metadata_update: metadataUpdate,
  gitbook_loader: gitbookLoader,
  notion_loader: notionLoader,
  figma_loader: figmaLoader,
  web_scraper: webScraper,
  sitemap_scraper: sitemapScraper,
  api_request: apiRequest,
  recursive_splitter: recursiveSplitter,
  html_splitter: htmlSplitter,
  markdown_splitter: markdownSplitter,
  calculator_tool: calculatorTool,
  text_tool: textTool,
  vector_store_tool: vectorStoreTool,
  jira_tools: jiraToolsNode,
  iteration,
  conditional,
};
