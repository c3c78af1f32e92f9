import type { RunDetail, RunStatus, StartRunBody } from '@atelier/schemas';
import i18next from 'i18next';
import { chatErrorText } from '@/features/chat/errors';
import { createStreamClient } from '@/features/chat/stream-client';
import { api, apiUrl, tokens } from '@/lib/api';
import { runFailure } from './run-errors';
import { useRunStore } from './run-store';
import { createRunClient, type RunClient, type RunSink } from './run-stream';

export { activeRunKey, createRunClient, type RunClient, type RunSink } from './run-stream';

/* The app's own client, bound to the API session and the run store. */

let appClient: RunClient | null = null;
/** Created on first use, so that importing this module (tests, the editor's chunk) does no work. */
function client(): RunClient {
  appClient ??= createRunClient({
    stream: createStreamClient({ baseUrl: apiUrl, tokens, refresh: api.refresh }),
    api,
    storage: typeof sessionStorage === 'undefined' ? null : sessionStorage,
  });
  return appClient;
}

export const storeSink: RunSink = {
  event: (event, id) => useRunStore.getState().applyEvent(event, id),
  load: (detail) => useRunStore.getState().loadRun(detail),
};

/** One run feeds the store at a time: starting or resuming another stops following the previous. */
let following: AbortController | null = null;
function takeOver(): AbortSignal {
  following?.abort();
  following = new AbortController();
  return following.signal;
}

/** Stops following the current run (it goes on on the server; resumeActiveRun finds it again). */
export function stopFollowing() {
  following?.abort();
  following = null;
}

/** Starts a test run of the draft and streams it into the store; failures are thrown. */
export function startTestRun(chatbotId: string, body: StartRunBody, sink: RunSink = storeSink) {
  const signal = takeOver();
  useRunStore.getState().begin();
  return client().start(chatbotId, body, sink, signal);
}

/**
 * Called by the editor on load: re-attaches to the chatbot's run that was going on before a
 * reload, or shows it if it has finished meanwhile. Resolves with its id, null when there was none.
 */
export async function resumeActiveRun(chatbotId: string): Promise<string | null> {
  if (!client().activeRun(chatbotId)) return null;
  const signal = takeOver();
  try {
    return await client().resume(chatbotId, storeSink, signal);
  } catch (error) {
    const failure = runFailure(error);
    // The app's i18next instance: this runs outside any component.
    if (failure) useRunStore.getState().fail(chatErrorText(i18next.t, failure));
    return null;
  }
}

export const cancelRun = (runId: string) => client().cancel(runId);
export const getRun = (runId: string) => client().getRun(runId);
export const listRuns = (chatbotId: string, query?: { limit?: number; status?: RunStatus }) =>
  client().list(chatbotId, query);

/** A past run opened from the list: following stops, the run is shown as it was. */
export async function openRun(runId: string): Promise<RunDetail> {
  stopFollowing();
  const detail = await getRun(runId);
  useRunStore.getState().loadRun(detail);
  return detail;
}
