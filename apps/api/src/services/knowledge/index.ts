import type { Db } from '@atelier/db';
import type { ModelAccess, SecretBox } from '@atelier/metering';
import type { UrlPolicy } from '@atelier/net';
import type { CreditsService } from '../credits/credits-service';
import type { WorkspacesService } from '../workspaces/workspaces-service';
import { createCollectionsService } from './collections-service';
import { createConnectorsService, type KnowledgeApi } from './connectors-service';
import { createDocumentsService } from './documents-service';
import { createToolsService } from './tools-service';

export type { KnowledgeApi } from './connectors-service';

export interface KnowledgeServicesDeps {
  db: Db;
  workspaces: WorkspacesService;
  credits: CreditsService;
  box: SecretBox;
  modelAccess: ModelAccess;
  /** What connector URLs may reach. */
  urlPolicy: UrlPolicy;
  knowledge: KnowledgeApi;
  /** Uploads wait in `<dataDir>/uploads` until ingested. */
  dataDir: string;
  /** Work that failed after a request was answered (a document's fields not written on its chunks). */
  onError?: (error: unknown, context: string) => void;
}

/** Connectors, RAG collections, their documents and stored tools: the API side of knowledge. */
export function createKnowledgeServices(deps: KnowledgeServicesDeps) {
  const connectors = createConnectorsService(deps);
  const collections = createCollectionsService({ ...deps, connectors });
  return {
    connectors,
    collections,
    documents: createDocumentsService({ ...deps, connectors, collections }),
    tools: createToolsService(deps),
  };
}

export type KnowledgeServices = ReturnType<typeof createKnowledgeServices>;
