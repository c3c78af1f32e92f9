// The fake provider in a process of its own, so that it does not share an event loop with Atelier.
// Arguments: the delay between tokens, and before the first token (ms).
import { startFakeProvider } from '@atelier/testkit';

const tokenDelayMs = Number(process.argv[2] ?? 10);
const fake = await startFakeProvider({
  apiKey: 'test-key',
  tokenDelayMs,
  firstTokenDelayMs: Number(process.argv[3] ?? tokenDelayMs),
});
process.stdout.write(`${fake.url}\n`);
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
