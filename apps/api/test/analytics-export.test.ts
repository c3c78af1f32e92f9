import { chatbots } from '@atelier/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbot, insertLogs, range } from './analytics-fixtures';
import { call, createOrg, startTestApp, type Org, type TestApp } from './helpers';

let t: TestApp;
let org: Org;
let talkative: string;
let quiet: string;
const RANGE = range('2025-02-01T00:00:00Z', '2025-03-01T00:00:00Z');
const TRICKY = 'He said "hi", then\nleft; naïve → ok';

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
  const ws = await org.workspace(org.admin, 'Exports');
  talkative = await chatbot(t.app, org.admin, ws, 'Talkative');
  quiet = await chatbot(t.app, org.admin, ws, 'Quiet');
  await t.app.db.update(chatbots).set({ storeConversations: false }).where(eq(chatbots.id, quiet));
  await insertLogs(t.app, org, ws, [
    {
      chatbotId: talkative,
      chatbotName: 'Talkative',
      userId: org.admin.id,
      createdAt: new Date('2025-02-10T10:00:00Z'),
      userMessage: TRICKY,
      response: '=HYPERLINK("http://evil.test")',
    },
    // A row holding content although its chatbot is metrics-only (written before the switch).
    {
      chatbotId: quiet,
      chatbotName: 'Quiet',
      userId: org.admin.id,
      createdAt: new Date('2025-02-11T10:00:00Z'),
      userMessage: 'private question',
      response: 'private answer',
      completePrompt: 'system: private',
      error: true,
    },
  ]);
});
afterAll(() => t.close());

const exportAs = (format: string, more = '') =>
  t.app.inject({
    method: 'GET',
    url: `/analytics/logs/export?${RANGE}&format=${format}${more}`,
    headers: { authorization: `Bearer ${org.admin.token}` },
  });

describe('log export', () => {
  it('writes JSON lines, one log per line, newest first, no content for metrics-only chatbots', async () => {
    const res = await exportAs('jsonl');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="inference-logs-.+\.jsonl"$/);
    const lines = res.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      chatbot: 'Quiet',
      user: org.admin.email,
      complete_prompt: '',
      user_message: '',
      response: '',
      status: 'error',
      error: true,
      error_message: 'The provider failed.',
    });
    expect(lines[1]).toMatchObject({ chatbot: 'Talkative', user_message: TRICKY, streamed: true });
    expect(res.body).not.toContain('private');
  });

  it('writes CSV with a header, quoted fields and formulas neutralized', async () => {
    const res = await exportAs('csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [header] = res.body.split('\n');
    expect(header).toBe(
      'timestamp,chatbot,user,model,provider_model_name,provider_type,complete_prompt,user_message,response,' +
        'request_words,response_words,first_token_ms,total_ms,streamed,fallback,error,error_message,status,feedback,' +
        'id,chatbot_id,user_id',
    );
    expect(res.body).toContain('"He said ""hi"", then\nleft; naïve → ok"');
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(res.body).not.toContain('private');
  });

  it('applies the filters of the listing', async () => {
    const res = await exportAs('jsonl', `&chatbot_id=${talkative}`);
    expect(res.body.trimEnd().split('\n')).toHaveLength(1);
    const none = await exportAs('csv', '&status=success&q=nothing-matches-this');
    expect(none.body.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a bad format and a bad zone before it starts', async () => {
    expect((await exportAs('xlsx')).statusCode).toBe(422);
    const res = await call(t.app, 'GET', `/analytics/logs/export?${RANGE}&tz=Nowhere%2FLand`, {
      token: org.admin.token,
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_error');
  });
});
