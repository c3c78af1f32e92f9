import { terminalEventOf } from '@atelier/runtime';
import {
  FLOW_TEMPLATES,
  flowErrorBody,
  idParams,
  runDetail,
  runIdParams,
  runsAnswer,
  runsQuery,
  runStatus,
  startRunAnswer,
  startRunBody,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALL_ROLES, BUILDERS, principalOf } from '../plugins/auth';
import { CONFIG_BODY_LIMIT, TEXT_BODY_LIMIT, uploadBodyLimit } from '../plugins/body-limits';
import { relayRunEvents } from '../plugins/sse';
import { errorAnswers } from './responses';

const tags = ['runs'];
const everyone = { access: { roles: ALL_ROLES } };
const builders = { access: { roles: BUILDERS } };
const flowErrors = { ...errorAnswers(401, 403, 404, 402), 422: flowErrorBody };

const templateAnswer = z.object({
  templates: z.array(
    z.object({
      id: z.string(),
      /** A translation key (`flowTemplates.<id>.name`); the web app's locale files hold the texts. */
      name: z.string(),
      type: z.enum(['chatflow', 'workflow']),
      /** A translation key (`flowTemplates.<id>.description`). */
      description: z.string(),
      configuration: z.object({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) }),
    }),
  ),
});

/** Our own calls around the spec's: test runs from the editor, following and inspecting runs, templates. */
const runsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.runs;

  app.get(
    '/templates',
    {
      config: builders,
      schema: {
        tags,
        summary: 'The flow templates (8 chatflows, 2 workflows)',
        response: { 200: templateAnswer },
      },
    },
    async () => ({
      templates: FLOW_TEMPLATES.map((t) => ({
        id: t.id,
        name: t.name,
        type: t.type,
        description: t.description,
        configuration: t.configuration,
      })),
    }),
  );

  app.post(
    '/chatbots/:id/runs',
    {
      config: { ...builders, rateLimitPreset: 'run', eventStream: 'on-request' },
      // A draft configuration, plain inputs and files (as many and as large as a chat message's images).
      bodyLimit: uploadBodyLimit(app.config.images, CONFIG_BODY_LIMIT + TEXT_BODY_LIMIT),
      schema: {
        tags,
        summary: 'Start a test run of a chatflow or workflow (its saved configuration, or the draft given)',
        description:
          "Answers at once with the run id; follow it with GET /runs/{id}/events. With `Accept: text/event-stream` the answer is the run's event stream itself (the first event, run_started, carries the run id).",
        params: idParams,
        body: startRunBody,
        response: { 201: startRunAnswer, ...flowErrors, ...errorAnswers(413, 429) },
      },
    },
    async (request, reply) => {
      const run = await service.startTest(principalOf(request), request.params.id, request.body);
      if (request.headers.accept?.includes('text/event-stream')) {
        return relayRunEvents(reply, {
          events: app.runtime.events,
          heartbeatMs: app.config.heartbeatMs,
          runId: run.id,
          after: null,
          log: request.log,
        });
      }
      return reply.status(201).send({ run_id: run.id, status: run.status });
    },
  );

  app.get(
    '/chatbots/:id/runs',
    {
      config: builders,
      schema: {
        tags,
        summary: "A chatbot's runs, newest first",
        params: idParams,
        querystring: runsQuery,
        response: { 200: runsAnswer, ...errorAnswers(401, 403, 404, 422) },
      },
    },
    async (request) => ({ runs: await service.list(principalOf(request), request.params.id, request.query) }),
  );

  app.get(
    '/runs/:id',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'A run with its node executions',
        params: runIdParams,
        response: { 200: runDetail, ...errorAnswers(401, 403, 404, 422) },
      },
    },
    async (request) => service.get(principalOf(request), request.params.id),
  );

  app.post(
    '/runs/:id/cancel',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Cancel a run (a queued run ends at once; a running one stops at its next step)',
        params: runIdParams,
        response: {
          200: z.object({ run_id: z.string(), status: runStatus }),
          ...errorAnswers(401, 403, 404, 422),
        },
      },
    },
    async (request) => ({
      run_id: request.params.id,
      status: await service.cancel(principalOf(request), request.params.id),
    }),
  );

  app.get(
    '/runs/:id/events',
    {
      config: { ...everyone, eventStream: 'always' },
      schema: {
        tags,
        summary: "A run's events as server-sent events; re-attach with Last-Event-ID",
        description:
          'Each event has an `id:`; send the last one received as the `Last-Event-ID` header (or `last_event_id`) to resume without gaps or duplicates. Ends with `data: [DONE]` after execution_completed or execution_error. Leaving does not stop the run.',
        params: runIdParams,
        querystring: z.object({ last_event_id: z.string().max(64).optional() }).strict(),
        response: errorAnswers(401, 403, 404, 422),
      },
    },
    async (request, reply) => {
      const run = await service.visible(principalOf(request), request.params.id);
      const header = request.headers['last-event-id'];
      const after = (typeof header === 'string' ? header : null) ?? request.query.last_event_id ?? null;
      await relayRunEvents(reply, {
        events: app.runtime.events,
        heartbeatMs: app.config.heartbeatMs,
        runId: run.id,
        after,
        log: request.log,
        ended: terminalEventOf(run),
      });
    },
  );
};

export default runsRoutes;
