// Calls /health every 50 ms from a process of its own, as a load balancer would, until it is sent
// SIGTERM; then prints its latencies (ms) as one JSON array. Measured apart from the bench, whose own
// event loop is busy sending hundreds of MB of uploads and would otherwise count its stalls as the API's.
const base = process.argv[2]!;
const latencies: number[] = [];
let done = false;
process.on('SIGTERM', () => (done = true));
process.stdout.write('ready\n');
while (!done) {
  const started = performance.now();
  await fetch(`${base}/health`).then((r) => r.arrayBuffer());
  latencies.push(performance.now() - started);
  await new Promise((r) => setTimeout(r, 50));
}
process.stdout.write(`${JSON.stringify(latencies.map((n) => Math.round(n * 100) / 100))}\n`);

export {};
