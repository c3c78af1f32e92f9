import { describe, expect, it } from 'vitest';
import { scrubEvent, scrubSpan, scrubText } from '../src/scrub';

const secret = 'sk-abcdefghijklmnop1234';

describe('what an error report may carry', () => {
  it('keeps the request method and URL without query, and only harmless headers', () => {
    const event = scrubEvent({
      request: {
        method: 'POST',
        url: `https://atelier.example/chat?token=${secret}`,
        data: '{"messages":[{"role":"user","content":"my prompt"}]}',
        query_string: `token=${secret}`,
        cookies: { session: 'abc' },
        env: { REMOTE_ADDR: '10.0.0.1' },
        headers: {
          Authorization: 'Bearer abc.def.ghi',
          cookie: 'session=abc',
          'x-api-key': secret,
          'User-Agent': 'curl/8',
          'x-request-id': 'req-1',
        },
      },
      user: { id: 'u1', email: 'a@b.c', ip_address: '10.0.0.1' },
      breadcrumbs: [{ message: 'console: my prompt' }],
    });
    expect(event).toEqual({
      request: {
        method: 'POST',
        url: 'https://atelier.example/chat',
        headers: { 'User-Agent': 'curl/8', 'x-request-id': 'req-1' },
      },
    });
  });

  it('masks credentials in messages and drops prompts, answers and local variables from extra data', () => {
    const event = scrubEvent({
      message: `failed with Bearer abc.def and ${secret} at https://user:pass@host/x`,
      exception: {
        values: [
          {
            type: 'Error',
            value: `provider said no to key ${secret}`,
            stacktrace: { frames: [{ function: 'f', vars: { prompt: 'my prompt' } }] },
          },
        ],
      },
      extra: { prompt: 'my prompt', answer: 'the answer', nested: { apiKey: secret, runId: 'r1' } },
      contexts: { trace: { trace_id: 't', data: { 'gen_ai.prompt': 'my prompt' } } },
      tags: { route: '/chatbots/:id/runs' },
    });
    const text = JSON.stringify(event);
    for (const leak of ['my prompt', 'the answer', secret, 'abc.def', 'user:pass'])
      expect(text).not.toContain(leak);
    expect(event.exception.values[0]!.value).toBe('provider said no to key [redacted]');
    expect(event.extra).toEqual({
      prompt: '[redacted]',
      answer: '[redacted]',
      nested: { apiKey: '[redacted]', runId: 'r1' },
    });
    expect(event.tags).toEqual({ route: '/chatbots/:id/runs' });
    expect(event.contexts.trace.trace_id).toBe('t');
  });

  it('streamed spans keep harmless headers and URLs without query, nothing named like content', () => {
    const span = scrubSpan({
      name: 'GET /runs?token=abc',
      attributes: {
        'url.full': `http://h/runs/1?token=${secret}`,
        'http.request.header.authorization': ['[Filtered]'],
        'http.request.header.user-agent': ['node'],
        'http.request.body.size': 42,
        'gen_ai.input.messages': 'my prompt',
        'http.response.status_code': 200,
      },
    });
    expect(span).toEqual({
      name: 'GET /runs',
      attributes: {
        'url.full': 'http://h/runs/1',
        'http.request.header.user-agent': ['node'],
        'http.request.body.size': '[redacted]',
        'gen_ai.input.messages': '[redacted]',
        'http.response.status_code': 200,
      },
    });
  });

  it('scrubText leaves ordinary text alone', () => {
    expect(scrubText('The run failed: node llm_ab12 timed out')).toBe(
      'The run failed: node llm_ab12 timed out',
    );
  });
});
