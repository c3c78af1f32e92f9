import cors from '@fastify/cors';
import type { Database } from '@atelier/db';
import { createRuntime, type Runtime } from '@atelier/runtime';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './env';
import authPlugin from './plugins/auth';
import { corsOptionsFor } from './plugins/embed-access';
import dbPlugin from './plugins/db';
import errorReportingPlugin from './plugins/error-reporting';
import errorsPlugin, { frameworkErrors } from './plugins/errors';
import inputGuardPlugin from './plugins/input-guard';
import { redactingLogger } from './plugins/logging';
import metricsPlugin from './plugins/metrics';
import openapiPlugin from './plugins/openapi';
import rateLimitsPlugin from './plugins/rate-limits';
import redisPlugin from './plugins/redis';
import requestIdPlugin, { requestIdOptions } from './plugins/request-id';
import routeLimitsPlugin from './plugins/route-limits';
import { closeEventStreams } from './plugins/sse';
import tracingPlugin from './plugins/tracing';
import analyticsRoutes from './routes/analytics';
import apiKeysRoutes from './routes/api-keys';
import authRoutes from './routes/auth';
import chatRoutes, { flowChatRoutes } from './routes/chat';
import chatbotsRoutes from './routes/chatbots';
import connectorsRoutes from './routes/connectors';
import creditsRoutes from './routes/credits';
import embedFilesRoutes from './routes/embed-files';
import embedPublicRoutes from './routes/embed-public';
import embedSettingsRoutes from './routes/embed-settings';
import healthRoutes from './routes/health';
import metricsRoutes from './routes/metrics';
import modelsRoutes from './routes/models';
import providersRoutes from './routes/providers';
import publicNativeRoutes from './routes/public-native';
import publicOpenAiRoutes from './routes/public-openai';
import ragCollectionsRoutes from './routes/rag-collections';
import runsRoutes from './routes/runs';
import toolsRoutes from './routes/tools';
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
    ...requestIdOptions,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);

  await app.register(errorReportingPlugin, { config });
  await app.register(requestIdPlugin);
  await app.register(tracingPlugin);
  await app.register(metricsPlugin);
  await app.register(errorsPlugin);
  await app.register(inputGuardPlugin);
  await app.register(cors, { delegator: corsOptionsFor(app) });
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
    loaderEndpoints: config.loaderEndpoints,
    providerPolicy: config.providerUrlPolicy,
    concurrency: config.runConcurrency,
    executesRuns: !config.redisUrl || config.runWorkerInApi,
    runnerKind: 'api',
    lockDurationMs: config.runLockMs,
    singleProcess: options.database.kind === 'pglite',
    dataDir: config.dataDir,
    // Uploaded documents are on this process's disk: it ingests them.
    ingestsDocuments: config.ingestDocuments,
    onError: (err, context) => {
      app.log.error({ err }, `flow runtime: ${context}`);
      app.telemetry.reportError(err, { where: 'flow runtime' });
    },
    log: app.log,
  });
  app.decorate('runtime', runtime);
  // Closing (SIGTERM): open run streams are told to reconnect (elsewhere) and end at once; the runs
  // running here get the grace period to finish.
  let drained: Promise<void> | null = null;
  app.addHook('preClose', async () => {
    closeEventStreams(app.server);
    drained = runtime.drain(config.shutdownGraceMs);
  });
  app.addHook('onClose', async () => {
    await (drained ?? runtime.drain(config.shutdownGraceMs));
    await runtime.close();
  });

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
      publicApiUrl: config.publicApiUrl,
      onMailError: (err) => app.log.error({ err }, 'mail could not be sent'),
      encryptionKey: config.encryptionKey,
      providerUrlPolicy: config.providerUrlPolicy,
      runtime,
      dataDir: config.dataDir,
      onKnowledgeError: (err, context) => app.log.warn({ err }, `knowledge: ${context}`),
    }),
  );

  await app.register(healthRoutes);
  await app.register(metricsRoutes);
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
  await app.register(connectorsRoutes);
  await app.register(ragCollectionsRoutes);
  await app.register(toolsRoutes);
  await app.register(apiKeysRoutes);
  await app.register(publicOpenAiRoutes);
  await app.register(publicNativeRoutes);
  await app.register(embedSettingsRoutes);
  await app.register(embedPublicRoutes);
  await app.register(embedFilesRoutes);
  return app;
}
