import { setFlagsFromString } from 'node:v8';
import { migrateDatabase, openDatabase } from '@atelier/db';
import { configureParsePool } from '@atelier/knowledge';
import { buildApp } from './app';
import { ConfigError, loadConfig, secureDataDir } from './env';
import { bootstrapFirstAdmin } from './services/organizations/organizations-service';

/**
 * A full collection comes once the old generation is 2.5 times what survived the last one. V8's own
 * rule lets a small heap grow up to four times first: under 200 concurrent chats on the embedded
 * database the API then peaked at 296-337 MB of RSS, mostly garbage awaiting collection (about 70 MB
 * survive); with this, 259-260 MB (2 times: 237-244 MB, for more CPU per answer). bench:chat. V8 reads
 * it at each collection, so setting it here, before any load, holds.
 */
setFlagsFromString('--heap-growing-percent=150');

async function main() {
  const config = loadConfig();
  secureDataDir(config.dataDir);
  configureParsePool({ threads: config.parseThreads });
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: `${config.dataDir}/pglite`,
    poolSize: config.dbPoolSize,
    // The embedded database in a process of its own: its work off this event loop, its memory not ours.
    embedded: 'process',
    connectTimeoutMs: config.dbConnectTimeoutMs,
  });
  await migrateDatabase(database);
  const app = await buildApp({ config, database });

  const first = await database.exclusively(() =>
    bootstrapFirstAdmin(database.db, {
      name: config.organizationName,
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      adminName: config.adminName,
      monthlyCredits: config.monthlyCredits,
    }),
  );
  if (first) {
    const shown = first.generated
      ? `password: ${first.password} (shown once; change it after logging in)`
      : 'password from ADMIN_PASSWORD';
    // Printed to the console, not the structured log: it is meant for the operator's eyes only, once.
    console.log(
      `\n  Atelier first start: created organization and admin\n  email: ${first.adminEmail}\n  ${shown}\n`,
    );
  }

  // SIGTERM: stop accepting (new calls get 503), tell open run streams to reconnect elsewhere, let
  // answers and runs in progress finish within SHUTDOWN_GRACE_MS (runs still running then are ended
  // with the reason; queued ones stay queued for another process), then leave with 0.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    // A last resort should closing itself hang (a connection that never answers).
    const force = setTimeout(() => {
      app.log.error('the API did not close in time after the grace period');
      process.exit(1);
    }, config.shutdownGraceMs + 10_000).unref();
    // Answers still streaming when the grace period ends are cut (their runs are handled above).
    const cut = setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceMs).unref();
    try {
      await app.close();
      await database.close();
      clearTimeout(force);
      clearTimeout(cut);
      app.log.info('stopped');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      db: database.kind,
      queue: config.redisUrl ? 'redis' : 'in-process',
      docs: `http://localhost:${config.port}/docs`,
    },
    'Atelier API ready',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
