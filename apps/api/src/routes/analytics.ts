import {
  analyticsQuery,
  engagementAnswer,
  idParams,
  logDetailAnswer,
  logExportQuery,
  logFacetsAnswer,
  logsAnswer,
  logsQuery,
  overviewAnswer,
  pageViewBody,
  performanceAnswer,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALL_ROLES, principalOf } from '../plugins/auth';
import { PAGE_VIEW_BODY_LIMIT } from '../plugins/body-limits';
import { AUTHED, errorAnswers } from './responses';

const tags = ['analytics'];
const everyone = { access: { roles: ALL_ROLES } };
const SCOPE_NOTE =
  'Admins see their organization (or the workspace named), creators the workspaces they belong to, ' +
  'users their own usage. Buckets are local days, weeks (from Monday) or months in `tz`.';

const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.analytics;

  app.post(
    '/analytics/page-views',
    {
      config: { ...everyone, rateLimitPreset: 'pageView' },
      bodyLimit: PAGE_VIEW_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Record a named page view (for example "Forbidden Page")',
        body: pageViewBody,
        response: { 204: z.null(), ...errorAnswers(...AUTHED, 429) },
      },
    },
    async (request, reply) => {
      await service.recordPageView(principalOf(request), request.body);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/analytics/overview',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Inference volume, hourly volume, response time, top chatbots and daily active users',
        description: SCOPE_NOTE,
        querystring: analyticsQuery,
        response: { 200: overviewAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => service.overview(principalOf(request), request.query),
  );

  app.get(
    '/analytics/performance',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'First-token and total time percentiles; error and fallback rates per model and chatbot',
        description: SCOPE_NOTE,
        querystring: analyticsQuery,
        response: { 200: performanceAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => service.performance(principalOf(request), request.query),
  );

  app.get(
    '/analytics/engagement',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Conversations, messages per conversation, active users and page views',
        description: SCOPE_NOTE,
        querystring: analyticsQuery,
        response: { 200: engagementAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => service.engagement(principalOf(request), request.query),
  );

  app.get(
    '/analytics/logs',
    {
      config: everyone,
      schema: {
        tags,
        summary:
          'Inference logs, newest first, filtered; pass `next_cursor` back as `cursor` for the next page',
        description: SCOPE_NOTE,
        querystring: logsQuery,
        response: { 200: logsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => service.logs(principalOf(request), request.query),
  );

  app.get(
    '/analytics/logs/filters',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'The chatbots, models and users the logs of the range name (for the log filters)',
        querystring: analyticsQuery,
        response: { 200: logFacetsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => service.logFacets(principalOf(request), request.query),
  );

  app.get(
    '/analytics/logs/export',
    {
      config: { ...everyone, rateLimitPreset: 'logExport' },
      schema: {
        tags,
        summary: 'Export the filtered logs as CSV or JSON lines (streamed)',
        description: `${SCOPE_NOTE} Metrics-only chatbots export no content.`,
        querystring: logExportQuery,
        produces: ['text/csv', 'application/x-ndjson'],
        response: {
          200: z.string().describe('CSV with a header row, or one JSON object per line'),
          ...errorAnswers(...AUTHED, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const stream = await service.exportLogs(principalOf(request), request.query);
      const day = new Date().toISOString().slice(0, 10);
      return (
        reply
          .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
          .header('content-disposition', `attachment; filename="inference-logs-${day}.${format}"`)
          .header('cache-control', 'no-store')
          // A stream is piped as it is (with backpressure), never serialized: the schema only documents it.
          .send(stream as unknown as string)
      );
    },
  );

  app.get(
    '/analytics/logs/:id',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'One inference log with its prompt and response (empty for metrics-only chatbots)',
        params: idParams,
        response: { 200: logDetailAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ log: await service.log(principalOf(request), request.params.id) }),
  );
};

export default analyticsRoutes;
