import { base64EmbeddingsBody, embeddingOf } from './embedding';
import { invalid, modelNotFound } from './errors';
import { requireModel, requireObject, sendBytes, sendJson } from './exchange';
import { passModelSwitches } from './model-switches';
import { countWords } from './text';
import type { Exchange } from './types';

const CREATED = 1_700_000_000;

export const OPENAI_MODELS: { id: string; owned_by: string }[] = [
  { id: 'gpt-4o-mini', owned_by: 'system' },
  { id: 'gpt-4o', owned_by: 'system' },
  { id: 'text-embedding-3-small', owned_by: 'system' },
  { id: 'text-embedding-3-large', owned_by: 'system' },
  { id: 'dall-e-3', owned_by: 'system' },
  { id: 'dall-e-2', owned_by: 'system' },
  { id: 'gpt-image-1', owned_by: 'system' },
  { id: 'tts-1', owned_by: 'openai-internal' },
  { id: 'whisper-1', owned_by: 'openai-internal' },
  { id: 'sora-2', owned_by: 'system' },
  { id: 'mistral-ocr-latest', owned_by: 'mistralai' },
];

const ANTHROPIC_MODELS = [
  { id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5' },
  { id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5' },
  { id: 'claude-opus-4-1', display_name: 'Claude Opus 4.1' },
];

const openAiModel = (id: string, ownedBy: string) => ({
  id,
  object: 'model',
  created: CREATED,
  owned_by: ownedBy,
});

/** GET /v1/models, in Anthropic's shape when the caller speaks Anthropic (sends anthropic-version). */
export function listModels(ex: Exchange): void {
  if (ex.dialect === 'anthropic') {
    const data = ANTHROPIC_MODELS.map((model) => ({
      type: 'model',
      ...model,
      created_at: new Date(CREATED * 1000).toISOString(),
    }));
    sendJson(ex.res, 200, { data, has_more: false, first_id: data[0]?.id, last_id: data.at(-1)?.id });
    return;
  }
  sendJson(ex.res, 200, {
    object: 'list',
    data: OPENAI_MODELS.map((model) => openAiModel(model.id, model.owned_by)),
  });
}

/** GET /v1/models/{id} */
export function retrieveModel(ex: Exchange): void {
  const id = decodeURIComponent(ex.params[0] ?? '');
  const model = OPENAI_MODELS.find((candidate) => candidate.id === id);
  if (!model) throw modelNotFound(ex.dialect, id);
  sendJson(ex.res, 200, openAiModel(model.id, model.owned_by));
}

/** GET /api/tags: Ollama's native listing, which Ollama clients use to discover pulled models. */
export function ollamaTags(ex: Exchange): void {
  const tag = (name: string, family: string, parameterSize: string, size: number) => ({
    name,
    model: name,
    modified_at: new Date(CREATED * 1000).toISOString(),
    size,
    digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
    details: {
      parent_model: '',
      format: 'gguf',
      family,
      families: [family],
      parameter_size: parameterSize,
      quantization_level: 'Q4_K_M',
    },
  });
  sendJson(ex.res, 200, {
    models: [
      tag('llama3.2:latest', 'llama', '3.2B', 2_019_393_189),
      tag('nomic-embed-text:latest', 'nomic-bert', '137M', 274_302_450),
    ],
  });
}

function embeddingInputs(input: unknown): string[] {
  // Token arrays are legal input too; their numbers stand in as words.
  const one = (item: unknown): string | undefined =>
    typeof item === 'string' ? item : Array.isArray(item) ? item.join(' ') : undefined;
  const items =
    typeof input === 'string' || (Array.isArray(input) && typeof input[0] === 'number') ? [input] : input;
  const texts = Array.isArray(items) ? items.map(one) : [];
  if (texts.length === 0 || texts.some((text) => !text)) throw invalid("'$.input' is invalid.");
  return texts as string[];
}

/** POST /v1/embeddings */
export async function embeddings(ex: Exchange): Promise<void> {
  const body = requireObject(ex.json);
  const model = requireModel(ex, body);
  const texts = embeddingInputs(body.input);
  const format = body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64')
    throw invalid("'encoding_format' must be 'float' or 'base64'.");
  const dimensions = body.dimensions ?? ex.state.embeddingDimensions;
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1) {
    throw invalid("'dimensions' must be a positive integer.");
  }
  if (!(await passModelSwitches(ex, model, false))) return;
  const tokens = texts.reduce((sum, text) => sum + countWords(text), 0);
  if (format === 'base64') {
    const vectors = texts.map((text) => embeddingOf(text, dimensions, 'base64') as string);
    sendBytes(ex.res, 'application/json', base64EmbeddingsBody(vectors, model, tokens));
    return;
  }
  const data = texts.map((text, index) => ({
    object: 'embedding',
    index,
    embedding: embeddingOf(text, dimensions, format),
  }));
  sendJson(ex.res, 200, {
    object: 'list',
    data,
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}
