export { bagOfWordsEmbedding } from './embedding';
export { startFakeProvider } from './server';
export type { FakeProvider, FakeProviderOptions, RecordedRequest, ScriptedToolCall } from './types';
