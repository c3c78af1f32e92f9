import cors from '@fastify/cors';
import type { Database } from '@atelier/db';
import { createRuntime, type Runtime } from '@atelier/runtime';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './env';
import authPlugin from './plugins/auth';
import dbPlugin from './plugins/db';
import errorsPlugin, { frameworkErrors } from './plugins/errors';
import inputGuardPlugin from './plugins/input-guard';
import { redactingLogger } from './plugins/logging';
import openapiPlugin from './plugins/openapi';
import rateLimitsPlugin from './plugins/rate-limits';
import redisPlugin from './plugins/redis';
import routeLimitsPlugin from './plugins/route-limits';
import analyticsRoutes from './routes/analytics';
import authRoutes from './routes/auth';
import chatRoutes, { flowChatRoutes } from './routes/chat';
import chatbotsRoutes from './routes/chatbots';
import creditsRoutes from './routes/credits';
import healthRoutes from './routes/health';
import modelsRoutes from './routes/models';
import providersRoutes from './routes/providers';
import runsRoutes from './routes/runs';
import usersRoutes from './routes/users';
import workspacesRoutes from './routes/workspaces';
import { createServices, type Services } from './services';
import { createMailer, type Mailer } from './services/mail/mailer';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    config: AppConfig;
    runtime: Runtime;
  }
}

export interface BuildOptions {
  config: AppConfig;
  /** Opened (and closed) by the caller: the server, a CLI or a test fixture. */
  database: Database;
  /** Replaces the configured mailer (tests read the mails it receives). */
  mailer?: Mailer;
  logger?: boolean | object;
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: redactingLogger(options.logger ?? { level: config.logLevel }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 600 },
    ajv: { customOptions: { removeAdditional: false } },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);

  await app.register(errorsPlugin);
  await app.register(inputGuardPlugin);
  await app.register(cors, {
    origin: config.webOrigins,
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    maxAge: 600,
  });
  await app.register(dbPlugin, { database: options.database });
  await app.register(redisPlugin, { url: config.redisUrl });
  await app.register(rateLimitsPlugin, { limits: config.rateLimits });
  await app.register(routeLimitsPlugin, { limits: config.routeRateLimits, nameSpace: config.queuePrefix });
  await app.register(authPlugin, {
    secret: config.jwtSecret,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
  });
  await app.register(openapiPlugin);

  // Flow runs: executed here (embedded mode, or with Redis unless separate workers take them).
  const runtime = createRuntime({
    db: options.database.db,
    redisUrl: config.redisUrl,
    redisPrefix: config.queuePrefix,
    encryptionKey: config.encryptionKey,
    providerTimeoutMs: config.providerTimeoutMs,
    httpPolicy: config.nodeUrlPolicy,
    providerPolicy: config.providerUrlPolicy,
    concurrency: config.runConcurrency,
    executesRuns: !config.redisUrl || config.runWorkerInApi,
    singleProcess: options.database.kind === 'pglite',
    onError: (err, context) => app.log.error({ err }, `flow runtime: ${context}`),
  });
  app.decorate('runtime', runtime);
  app.addHook('onClose', () => runtime.close());

  const mailer =
    options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger: app.log });
  app.decorate(
    'services',
    createServices({
      db: options.database.db,
      mailer,
      signAccessToken: (claims) => app.jwt.sign(claims),
      accessTokenTtlSeconds: config.accessTokenTtlSeconds,
      refreshTokenTtlDays: config.refreshTokenTtlDays,
      webUrl: config.webUrl,
      onMailError: (err) => app.log.error({ err }, 'mail could not be sent'),
      encryptionKey: config.encryptionKey,
      providerUrlPolicy: config.providerUrlPolicy,
      runtime,
    }),
  );

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(usersRoutes);
  await app.register(workspacesRoutes);
  await app.register(creditsRoutes);
  await app.register(analyticsRoutes);
  await app.register(providersRoutes);
  await app.register(modelsRoutes);
  await app.register(chatbotsRoutes);
  await app.register(chatRoutes);
  await app.register(flowChatRoutes);
  await app.register(runsRoutes);
  return app;
}
