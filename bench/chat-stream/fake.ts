// The fake provider in a process of its own, so that it does not share an event loop with Atelier.
import { startFakeProvider } from '@atelier/testkit';

const fake = await startFakeProvider({ apiKey: 'test-key', tokenDelayMs: Number(process.argv[2] ?? 10) });
process.stdout.write(`${fake.url}\n`);
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
