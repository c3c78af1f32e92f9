import { chatbots } from '@atelier/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbot, insertLogs, range } from './analytics-fixtures';
import { call, createOrg, startTestApp, type Actor, type Org, type TestApp } from './helpers';

let t: TestApp;
let org: Org;
let other: Org;
let user: Actor;
let creator: Actor;
let wsMine: string;
let wsOther: string;
let bot: string;
let quiet: string;
let otherOrgLog: string;
let quietLog: string;
const ids: string[] = [];
const RANGE = range('2025-03-01T00:00:00Z', '2025-03-31T00:00:00Z');
const base = Date.parse('2025-03-10T12:00:00Z');

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
  other = await createOrg(t.app);
  wsMine = await org.workspace(org.admin, 'Mine');
  wsOther = await org.workspace(org.admin, 'Not the creator’s');
  user = await org.member('user', 'plain');
  creator = await org.member('creator', 'maker');
  const added = await call(t.app, 'POST', '/user_workspace_roles', {
    token: org.admin.token,
    body: { user_id: creator.id, workspace_id: wsMine, workspace_role_id: 'editor' },
  });
  expect(added.status).toBeLessThan(300);
  bot = await chatbot(t.app, org.admin, wsMine, 'Helper');
  quiet = await chatbot(t.app, org.admin, wsMine, 'Quiet');
  // 25 logs of the user, pairs sharing their instant to the microsecond (the keyset's tie-break).
  ids.push(
    ...(await insertLogs(
      t.app,
      org,
      wsMine,
      Array.from({ length: 25 }, (_, i) => ({
        chatbotId: bot,
        chatbotName: 'Helper',
        userId: user.id,
        createdAt: new Date(base + Math.floor(i / 2) * 60_000),
        userMessage: i === 7 ? 'Where is the invoice for order 42?' : `question ${i}`,
        modelName: i % 3 === 0 ? 'big' : 'small',
        error: i % 4 === 0,
      })),
    )),
  );
  await insertLogs(t.app, org, wsOther, [
    { userId: org.admin.id, createdAt: new Date(base), modelName: 'elsewhere', userMessage: 'admin only' },
  ]);
  // Written while the chatbot stored content, then switched to metrics only: nothing of it is shown.
  quietLog = await oneLog(org, wsMine, {
    chatbotId: quiet,
    chatbotName: 'Quiet',
    userId: user.id,
    createdAt: new Date(base - 3_600_000),
    userMessage: 'secret plans',
    response: 'secret answer',
    completePrompt: 'system: secret',
  });
  await t.app.db.update(chatbots).set({ storeConversations: false }).where(eq(chatbots.id, quiet));
  const otherWs = await other.workspace(other.admin, 'Theirs');
  otherOrgLog = await oneLog(other, otherWs, {
    createdAt: new Date(base),
    userMessage: 'other org secret',
    modelName: 'theirs',
  });
});
afterAll(() => t.close());

async function oneLog(owner: Org, workspaceId: string, row: Parameters<typeof insertLogs>[3][number]) {
  const [id] = await insertLogs(t.app, owner, workspaceId, [row]);
  if (!id) throw new Error('no log inserted');
  return id;
}

const logs = (query: string, token = org.admin.token) =>
  call(t.app, 'GET', `/analytics/logs?${RANGE}&${query}`, { token });

describe('log listing', () => {
  it('pages by cursor, newest first, every row once, ties broken by id', async () => {
    const seen: string[] = [];
    const pages: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await logs(
        `workspace_id=${wsMine}&chatbot_id=${bot}&limit=10${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      pages.push(res.body.logs.length);
      seen.push(...res.body.logs.map((l: { id: string }) => l.id));
      const times = res.body.logs.map((l: { created_at: string }) => Date.parse(l.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(pages).toEqual([10, 10, 5]);
    expect(new Set(seen).size).toBe(25);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('filters by model, status, user and text', async () => {
    const big = await logs(`model=big&chatbot_id=${bot}`);
    expect(big.body.logs).toHaveLength(9);
    const errors = await logs(`status=error&chatbot_id=${bot}`);
    expect(errors.body.logs).toHaveLength(7);
    expect(errors.body.logs.every((l: { status: string }) => l.status === 'error')).toBe(true);
    const text = await logs('q=INVOICE');
    expect(text.body.logs.map((l: { user_message_preview: string }) => l.user_message_preview)).toEqual([
      'Where is the invoice for order 42?',
    ]);
    const byUser = await logs(`user_id=${user.id}`);
    expect(byUser.body.logs).toHaveLength(26);
    expect(byUser.body.logs.every((l: { user_email: string }) => l.user_email === user.email)).toBe(true);
    // Like's wildcards are searched as text.
    expect((await logs('q=%25')).body.logs).toHaveLength(0);
  });

  it('shows nothing of a metrics-only chatbot’s content, nor finds it by search', async () => {
    const listed = await logs(`chatbot_id=${quiet}`);
    expect(listed.body.logs).toHaveLength(1);
    expect(listed.body.logs[0].user_message_preview).toBe('');
    expect((await logs('q=secret')).body.logs).toHaveLength(0);
    const detail = await call(t.app, 'GET', `/analytics/logs/${quietLog}`, { token: org.admin.token });
    expect(detail.body.log).toMatchObject({
      content_stored: false,
      user_message: '',
      response: '',
      complete_prompt: '',
    });
  });

  it('gives a log’s details with its content', async () => {
    const detail = await call(t.app, 'GET', `/analytics/logs/${ids[7]}`, { token: org.admin.token });
    expect(detail.status).toBe(200);
    expect(detail.body.log).toMatchObject({
      id: ids[7],
      chatbot_name: 'Helper',
      user_email: user.email,
      user_message: 'Where is the invoice for order 42?',
      response: 'answer',
      complete_prompt: 'system: be brief\nuser: question',
      content_stored: true,
    });
  });

  it('refuses a bad cursor with 422', async () => {
    const res = await logs('cursor=not-a-cursor');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_cursor');
  });
});

describe('scoping by role and organization', () => {
  it('shows a plain user only their own usage, and refuses another user’s with 403', async () => {
    const mine = await logs('limit=200', user.token);
    expect(mine.body.logs).toHaveLength(26);
    expect(mine.body.logs.every((l: { user_id: string }) => l.user_id === user.id)).toBe(true);
    const overview = await call(t.app, 'GET', `/analytics/overview?${RANGE}`, { token: user.token });
    expect(overview.body.totals.requests).toBe(26);
    const theirs = await logs(`user_id=${org.admin.id}`, user.token);
    expect(theirs.status).toBe(403);
    expect(theirs.body).toMatchObject({ code: 'forbidden', detail: expect.any(String) });
    const adminLog = (await logs('model=elsewhere')).body.logs[0].id;
    expect((await call(t.app, 'GET', `/analytics/logs/${adminLog}`, { token: user.token })).status).toBe(404);
  });

  it('shows a creator the workspaces they belong to, an admin the organization', async () => {
    const creatorView = await call(t.app, 'GET', `/analytics/overview?${RANGE}`, { token: creator.token });
    expect(creatorView.body.totals.requests).toBe(26);
    const adminView = await call(t.app, 'GET', `/analytics/overview?${RANGE}`, { token: org.admin.token });
    expect(adminView.body.totals.requests).toBe(27);
    const notMember = await call(t.app, 'GET', `/analytics/overview?${RANGE}&workspace_id=${wsOther}`, {
      token: creator.token,
    });
    expect(notMember.status).toBe(404);
    const facets = await call(t.app, 'GET', `/analytics/logs/filters?${RANGE}`, { token: creator.token });
    expect(facets.body.models).toEqual(['big', 'm1', 'small']);
    expect(facets.body.chatbots.map((c: { name: string }) => c.name).sort()).toEqual(['Helper', 'Quiet']);
  });

  it('never shows another organization’s data: its ids answer 404', async () => {
    const token = other.admin.token;
    for (const path of [
      `/analytics/logs/${ids[0]}`,
      `/analytics/overview?${RANGE}&workspace_id=${wsMine}`,
      `/analytics/logs?${RANGE}&chatbot_id=${bot}`,
      `/analytics/logs?${RANGE}&user_id=${user.id}`,
      `/analytics/logs/export?${RANGE}&workspace_id=${wsMine}`,
    ]) {
      const res = await call(t.app, 'GET', path, { token });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const theirs = await call(t.app, 'GET', `/analytics/logs?${RANGE}&limit=200`, { token });
    expect(theirs.body.logs.map((l: { id: string }) => l.id)).toEqual([otherOrgLog]);
    const ours = await call(t.app, 'GET', `/analytics/logs/${otherOrgLog}`, { token: org.admin.token });
    expect(ours.status).toBe(404);
  });
});
