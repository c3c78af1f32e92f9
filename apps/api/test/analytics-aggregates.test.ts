import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbot, insertConversation, insertLogs, insertPageViews, range } from './analytics-fixtures';
import { call, createOrg, startTestApp, type Actor, type Org, type TestApp } from './helpers';

/**
 * Seeded logs and figures computed by hand. January: Paris is UTC+1. The Paris range is the local
 * days 6, 7 and 8 (Monday to Wednesday); 23:30 UTC on the 6th is 00:30 on the 7th in Paris.
 */
let t: TestApp;
let org: Org;
let u1: Actor;
let u2: Actor;
let botA: string;
let botB: string;
const PARIS = range('2025-01-06T00:00:00+01:00', '2025-01-09T00:00:00+01:00', { tz: 'Europe/Paris' });
const UTC = range('2025-01-06T00:00:00Z', '2025-01-09T00:00:00Z', { tz: 'UTC' });
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
  const ws = await org.workspace(org.admin, 'Figures');
  u1 = await org.member('user', 'u1');
  u2 = await org.member('user', 'u2');
  botA = await chatbot(t.app, org.admin, ws, 'Alpha');
  botB = await chatbot(t.app, org.admin, ws, 'Beta');
  const a = { chatbotId: botA, chatbotName: 'Alpha', modelName: 'm1' };
  const b = { chatbotId: botB, chatbotName: 'Beta', modelName: 'm2' };
  await insertLogs(t.app, org, ws, [
    { ...a, userId: u1.id, createdAt: at('2025-01-06T08:00:00Z'), totalMs: 100, firstTokenMs: 50 },
    {
      ...a,
      userId: u2.id,
      createdAt: at('2025-01-06T09:30:00Z'),
      totalMs: 300,
      firstTokenMs: 80,
      error: true,
    },
    // The boundary: the 6th in UTC, the 7th in Paris.
    {
      ...b,
      userId: u1.id,
      createdAt: at('2025-01-06T23:30:00Z'),
      totalMs: 200,
      streamed: false,
      fallback: true,
    },
    { ...a, userId: u1.id, createdAt: at('2025-01-07T12:00:00Z'), totalMs: 400, firstTokenMs: 120 },
    {
      ...b,
      userId: u2.id,
      createdAt: at('2025-01-08T22:59:00Z'),
      totalMs: 500,
      firstTokenMs: 100,
      error: true,
      fallback: true,
    },
    // Outside the Paris range on both sides; the second is inside the UTC range (the 8th).
    { ...a, userId: u1.id, createdAt: at('2025-01-05T22:59:00Z'), totalMs: 9000 },
    { ...a, userId: u1.id, createdAt: at('2025-01-08T23:00:00Z'), totalMs: 9000 },
  ]);
  const c1 = await insertConversation(t.app, org, u1, botA, [
    at('2025-01-06T08:00:00Z'),
    at('2025-01-06T08:01:00Z'),
    at('2025-01-07T12:00:00Z'),
  ]);
  const c2 = await insertConversation(t.app, org, u2, botB, [
    at('2025-01-06T23:30:00Z'),
    at('2025-01-06T23:31:00Z'),
  ]);
  expect(c1).not.toBe(c2);
  await insertPageViews(t.app, org, u1, 'Chat', [
    at('2025-01-06T10:00:00Z'),
    at('2025-01-06T11:00:00Z'),
    at('2025-01-06T12:00:00Z'),
  ]);
  await insertPageViews(t.app, org, u2, 'Analytics', [at('2025-01-08T10:00:00Z')]);
});
afterAll(() => t.close());

const get = async (path: string, token = org.admin.token) => {
  const res = await call(t.app, 'GET', path, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('overview', () => {
  it('counts by the local day of Europe/Paris: 23:30 UTC falls on the next day', async () => {
    const body = await get(`/analytics/overview?${PARIS}`);
    expect(body.totals).toEqual({ requests: 5, errors: 2, error_rate: 0.4, users: 2, avg_total_ms: 300 });
    expect(body.volume).toEqual([
      { bucket: '2025-01-06', requests: 2, errors: 1 },
      { bucket: '2025-01-07', requests: 2, errors: 0 },
      { bucket: '2025-01-08', requests: 1, errors: 1 },
    ]);
    // [100, 300]: avg 200, p95 = 100 + 0.95 × 200; [200, 400]: 300 and 390; the 7th's only first token is 120.
    expect(body.response_time).toEqual([
      { bucket: '2025-01-06', avg_total_ms: 200, p95_total_ms: 290, avg_first_token_ms: 65 },
      { bucket: '2025-01-07', avg_total_ms: 300, p95_total_ms: 390, avg_first_token_ms: 120 },
      { bucket: '2025-01-08', avg_total_ms: 500, p95_total_ms: 500, avg_first_token_ms: 100 },
    ]);
    const hours = Object.fromEntries(
      body.hourly
        .filter((h: { requests: number }) => h.requests > 0)
        .map((h: { hour: number; requests: number }) => [h.hour, h.requests]),
    );
    expect(body.hourly).toHaveLength(24);
    expect(hours).toEqual({ 0: 1, 9: 1, 10: 1, 13: 1, 23: 1 });
    expect(body.top_chatbots).toEqual([
      { chatbot_id: botA, name: 'Alpha', requests: 3 },
      { chatbot_id: botB, name: 'Beta', requests: 2 },
    ]);
    expect(body.daily_active_users).toEqual([
      { day: '2025-01-06', users: 2 },
      { day: '2025-01-07', users: 1 },
      { day: '2025-01-08', users: 1 },
    ]);
    expect(body.range).toEqual({
      from: '2025-01-05T23:00:00.000Z',
      to: '2025-01-08T23:00:00.000Z',
      period: 'day',
      tz: 'Europe/Paris',
    });
  });

  it('counts by the UTC day when asked in UTC', async () => {
    const body = await get(`/analytics/overview?${UTC}`);
    expect(body.volume.map((v: { requests: number }) => v.requests)).toEqual([3, 1, 2]);
    expect(body.totals.requests).toBe(6);
  });

  it('buckets by week (from Monday) and by month', async () => {
    const week = await get(`/analytics/overview?${PARIS}&period=week`);
    expect(week.volume).toEqual([{ bucket: '2025-01-06', requests: 5, errors: 2 }]);
    const month = await get(`/analytics/overview?${PARIS}&period=month`);
    expect(month.volume).toEqual([{ bucket: '2025-01-01', requests: 5, errors: 2 }]);
  });

  it('narrows to one chatbot', async () => {
    const body = await get(`/analytics/overview?${PARIS}&chatbot_id=${botB}`);
    expect(body.totals).toMatchObject({ requests: 2, errors: 1, users: 2, avg_total_ms: 350 });
  });
});

describe('performance', () => {
  it('gives percentiles and the error and fallback rates per model and chatbot', async () => {
    const body = await get(`/analytics/performance?${PARIS}`);
    // Totals [100, 200, 300, 400, 500]; first tokens [50, 80, 100, 120] (one call was not streamed).
    expect(body.total_ms).toEqual({ p50: 300, p95: 480, p99: 496 });
    expect(body.first_token_ms).toEqual({ p50: 90, p95: 117, p99: 119 });
    const m1 = {
      requests: 3,
      errors: 1,
      fallbacks: 0,
      error_rate: 1 / 3,
      fallback_rate: 0,
      p50_total_ms: 300,
      p95_total_ms: 390,
    };
    const m2 = {
      requests: 2,
      errors: 1,
      fallbacks: 2,
      error_rate: 0.5,
      fallback_rate: 1,
      p50_total_ms: 350,
      p95_total_ms: 485,
    };
    expect(body.by_model).toEqual([
      { model_name: 'm1', ...m1 },
      { model_name: 'm2', ...m2 },
    ]);
    expect(body.by_chatbot).toEqual([
      { chatbot_id: botA, name: 'Alpha', ...m1 },
      { chatbot_id: botB, name: 'Beta', ...m2 },
    ]);
  });
});

describe('user engagement', () => {
  it('counts conversations, messages, active users and page views by the local day', async () => {
    const body = await get(`/analytics/engagement?${PARIS}`);
    expect(body.totals).toEqual({
      conversations: 2,
      active_conversations: 2,
      messages: 5,
      messages_per_conversation: 2.5,
      active_users: 2,
      page_views: 4,
    });
    expect(body.activity).toEqual([
      { bucket: '2025-01-06', conversations: 1, messages: 2, active_users: 1, page_views: 3 },
      { bucket: '2025-01-07', conversations: 1, messages: 3, active_users: 2, page_views: 0 },
      { bucket: '2025-01-08', conversations: 0, messages: 0, active_users: 0, page_views: 1 },
    ]);
    expect(body.top_pages).toEqual([
      { name: 'Chat', views: 3 },
      { name: 'Analytics', views: 1 },
    ]);
  });

  it('gives a plain user their own figures only', async () => {
    const body = await get(`/analytics/engagement?${PARIS}`, u2.token);
    expect(body.totals).toEqual({
      conversations: 1,
      active_conversations: 1,
      messages: 2,
      messages_per_conversation: 2,
      active_users: 1,
      page_views: 1,
    });
  });
});

describe('bad input', () => {
  it('answers 422 with {detail, code} for a bad zone or range', async () => {
    for (const query of [
      `${PARIS.replace('Europe%2FParis', 'Mars%2FOlympus')}`,
      range('2025-01-06T00:00:00Z', '2025-01-09T00:00:00Z', { tz: '+01:00' }),
      range('2025-01-09T00:00:00Z', '2025-01-06T00:00:00Z'),
      range('2023-01-01T00:00:00Z', '2025-01-01T00:00:00Z'),
      range('2025-01-06', '2025-01-09T00:00:00Z'),
      `${UTC}&period=year`,
    ]) {
      const res = await call(t.app, 'GET', `/analytics/overview?${query}`, { token: org.admin.token });
      expect(res.status, query).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_error', detail: expect.any(String) });
    }
  });
});
