import { migrateDatabase, openDatabase } from '@atelier/db';
import { buildApp } from './app';
import { ConfigError, loadConfig, secureDataDir } from './env';
import { bootstrapFirstAdmin } from './services/organizations/organizations-service';

async function main() {
  const config = loadConfig();
  secureDataDir(config.dataDir);
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: `${config.dataDir}/pglite`,
    poolSize: config.dbPoolSize,
  });
  await migrateDatabase(database);
  const app = await buildApp({ config, database });

  const first = await database.exclusively(() =>
    bootstrapFirstAdmin(database.db, {
      name: config.organizationName,
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
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

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await database.close();
      clearTimeout(force);
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
