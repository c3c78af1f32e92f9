// Local stand-ins for an OpenTelemetry collector (OTLP/HTTP JSON) and a Sentry ingest endpoint: they
// keep what they receive, as the real services would, for tests to read.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
const valueOf = (v: OtlpValue) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attributesOf = (list: { key: string; value: OtlpValue }[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/** An OTLP/HTTP receiver of traces (JSON encoding), flattening what it gets into spans. */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const paths: string[] = [];
  const server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      paths.push(req.url ?? '');
      const data = JSON.parse(body.toString('utf8')) as {
        resourceSpans: {
          resource: { attributes: { key: string; value: OtlpValue }[] };
          scopeSpans: {
            spans: {
              traceId: string;
              spanId: string;
              parentSpanId?: string;
              name: string;
              attributes?: { key: string; value: OtlpValue }[];
            }[];
          }[];
        }[];
      };
      for (const rs of data.resourceSpans) {
        const service = String(attributesOf(rs.resource.attributes)['service.name']);
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans) {
            spans.push({
              service,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              attributes: attributesOf(s.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const url = await listen(server);
  return { url, spans, paths, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A Sentry-compatible ingest endpoint keeping each envelope as text, with the path it came to. */
export async function startSentryReceiver() {
  const envelopes: { path: string; text: string }[] = [];
  const server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      envelopes.push({ path: req.url ?? '', text: body.toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const url = await listen(server);
  const port = (server.address() as AddressInfo).port;
  return {
    dsn: `http://publickey@127.0.0.1:${port}/42`,
    url,
    envelopes,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
