import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '@atelier/schemas';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers server-sent events (described in the OpenAPI document as text/event-stream). */
    eventStream?: 'always' | 'on-request';
  }
}

type Schema = Record<string, unknown>;
type Responses = Record<string, Schema>;

const errorJson = { content: { 'application/json': { schema: z.toJSONSchema(errorBody) } } };
const EVENT_STREAM = {
  'text/event-stream': {
    schema: {
      type: 'string',
      description:
        'Server-sent events: `id:` and `data:` lines separated by a blank line; each data line is one JSON event, the stream ends with `data: [DONE]`.',
    },
  },
};

/** Answers every route may give besides its own: Fastify's and the error handler's. */
function withCommonAnswers(method: string, url: string, responses: Responses): Responses {
  const added: Responses = { ...responses };
  const describe = (status: number, description: string) => (added[status] ??= { description, ...errorJson });
  if (!['GET', 'HEAD', 'DELETE'].includes(method)) describe(413, 'The request body is too large.');
  if (url.includes(':') || url.includes('{')) describe(414, 'A path parameter is too long.');
  describe(500, 'Something went wrong on the server.');
  return added;
}

/**
 * OpenAPI 3.0 reads `nullable: true` beside an `enum` as "only the listed values": null must be listed
 * too. Applied to the whole generated document.
 */
function admitNullInEnums(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(admitNullInEnums);
  if (!node || typeof node !== 'object') return;
  const schema = node as Schema;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...(schema.enum as unknown[]), null];
  }
  Object.values(schema).forEach(admitNullInEnums);
}

/** The OpenAPI document, generated from the routes' zod schemas, served at /docs. */
export default fp(
  async function openapi(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Atelier API',
          description:
            'Build, publish and monitor AI chatbots and workflows. Errors answer `{detail, code}`.',
          version: '0.1.0',
        },
        servers: [{ url: app.config.publicApiUrl, description: 'This Atelier API' }],
        tags: [
          {
            name: 'public-api',
            description:
              "The public API (`/v1`), for other systems: authenticate with a chatbot's API key (`Authorization: Bearer atl_…`, created in the Studio), never a user's token. `POST /v1/chat/completions` and `GET /v1/models` speak OpenAI's protocol (`model` is the chatbot's id; errors also carry OpenAI's `{error: {message, type, code, param}}`); the other calls speak Atelier's own events and answer errors as `{detail, code}`. Each end user is named by the `user` string you send: one user's conversations and runs are invisible to another. Every call of a key counts against its per-minute limit (API_KEY_REQUESTS_PER_MINUTE; 429 with Retry-After).",
          },
        ],
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'atl_… API key' },
          },
        },
        security: [{ bearer: [] }],
      },
      transform(input) {
        const { schema, url } = jsonSchemaTransform(input) as { schema: Schema; url: string };
        if (schema.hide) return { schema, url };
        const method = [input.route.method].flat()[0] ?? 'GET';
        const responses = withCommonAnswers(method, input.url, (schema.response ?? {}) as Responses);
        const stream = input.route.config?.eventStream;
        if (stream) {
          const json = responses[200];
          // A JSON answer on the same status (stream on request) keeps its schema beside the stream.
          const ok: Schema =
            json && !json.content
              ? {
                  description: (json.description as string) ?? 'The answer.',
                  content: { 'application/json': { schema: json } },
                }
              : (json ?? { description: 'The event stream.' });
          ok.content = stream === 'always' ? EVENT_STREAM : { ...(ok.content as Schema), ...EVENT_STREAM };
          responses[200] = ok;
        }
        return { schema: { ...schema, response: responses }, url };
      },
      transformObject(documents) {
        const document = 'openapiObject' in documents ? documents.openapiObject : documents.swaggerObject;
        admitNullInEnums(document);
        return document;
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  },
  { name: 'openapi' },
);
