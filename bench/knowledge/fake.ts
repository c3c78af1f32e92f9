// The fake provider in a process of its own (1,536-dimension embeddings), so that it does not share an
// event loop with Atelier.
import { startFakeProvider } from '@atelier/testkit';

const fake = await startFakeProvider({ apiKey: 'test-key', tokenDelayMs: 10, embeddingDimensions: 1536 });
process.stdout.write(`${fake.url}\n`);
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
