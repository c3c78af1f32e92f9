import { modelNotFound, rateLimited, serverError, unauthorized } from './errors';
import type { Exchange } from './types';

/**
 * Failures picked by model name (or Azure deployment name), so a test chooses a failure just by
 * configuring a model; the same names work on every endpoint that takes a model. Throws the
 * scripted error, or waits out a stall and resolves false (the request is then over).
 * 'stall-stream' on a streaming request passes here: the stream writer stalls after its first chunk.
 */
export async function passModelSwitches(ex: Exchange, model: string, streaming: boolean): Promise<boolean> {
  const { dialect, state } = ex;
  if (model === 'fail-401') throw unauthorized(dialect);
  if (model === 'fail-404' || model.startsWith('missing')) throw modelNotFound(dialect, model);
  if (model === 'fail-429') throw rateLimited();
  // Any 'flaky-429…' name fails once per exact name, so several tests can share one provider.
  if (model.startsWith('flaky-429') && !state.flakyModelsSeen.has(model)) {
    state.flakyModelsSeen.add(model);
    throw rateLimited();
  }
  if (model === 'fail-500') throw serverError();
  if (model === 'stall' || (model === 'stall-stream' && !streaming)) {
    if (model === 'stall-stream') {
      // Headers but never a body: exercises a client's read timeout rather than its connect timeout.
      ex.res.writeHead(200, { 'content-type': 'application/json' });
      ex.res.flushHeaders();
    }
    await ex.disconnected;
    return false;
  }
  return true;
}
