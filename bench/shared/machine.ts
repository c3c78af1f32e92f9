import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { percentile } from './stats';

/**
 * How fast this machine is right now, printed beside a bench's figures: the shared 2-core virtual
 * machine benches run on has changed speed by half from one hour to the next (the same knowledge
 * bench: query p50 15.4 ms at one hour, 21.5 at the next, with the same code). `machine_js_ms`: a fixed
 * floating-point loop, best of 5 (CPU speed); `machine_loopback_rtt_ms`: the p50 of 300 small HTTP
 * round trips over 127.0.0.1 in one process (what every call between the bench's processes, the API,
 * the provider and the database pays: system calls, wake-ups, loopback TCP).
 */
export async function machineSpeed(): Promise<{ machine_js_ms: number; machine_loopback_rtt_ms: number }> {
  let best = Infinity;
  let sink = 0;
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    for (let i = 0; i < 30_000_000; i++) sink += Math.sqrt(i) * 1.0001;
    best = Math.min(best, performance.now() - started);
  }
  // Read, so the loop is not optimized away.
  if (!Number.isFinite(sink)) throw new Error('the calibration loop overflowed');
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/' }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end('ping');
    });
  const times: number[] = [];
  for (let i = 0; i < 350; i++) {
    const started = performance.now();
    await once();
    if (i >= 50) times.push(performance.now() - started);
  }
  await new Promise((resolve) => server.close(resolve));
  return {
    machine_js_ms: Number(best.toFixed(1)),
    machine_loopback_rtt_ms: Number(percentile(times, 50).toFixed(3)),
  };
}
