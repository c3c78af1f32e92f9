import { parseArgs } from 'node:util';
import { migrateDatabase, openDatabase, organizations } from '@atelier/db';
import { eq } from 'drizzle-orm';
import { loadConfig, secureDataDir } from '../env';
import { createCreditsService } from '../services/credits/credits-service';
import { createOrganization } from '../services/organizations/organizations-service';

const HELP = `Atelier administration commands

  org:create --name NAME --admin-email EMAIL [--admin-password PASSWORD] [--monthly-credits N]
      Creates an organization with its first admin (a password is generated when none is given).
  credits:grant --org ORGANIZATION_ID --amount N
      Adds extra credits to an organization.
`;

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === 'help' || command === '--help') {
    console.log(HELP);
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      'monthly-credits': { type: 'string' },
      org: { type: 'string' },
      amount: { type: 'string' },
    },
  });
  const config = loadConfig();
  secureDataDir(config.dataDir);
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: `${config.dataDir}/pglite`,
    poolSize: config.dbPoolSize,
    // The embedded database in a process of its own: its work off this event loop, its memory not ours.
    embedded: 'process',
  });
  try {
    await migrateDatabase(database);
    if (command === 'org:create') {
      if (!values.name || !values['admin-email'])
        throw new Error('org:create needs --name and --admin-email');
      const created = await createOrganization(database.db, {
        name: values.name,
        adminEmail: values['admin-email'],
        adminPassword: values['admin-password'],
        monthlyCredits: values['monthly-credits'] ? Number(values['monthly-credits']) : config.monthlyCredits,
      });
      console.log(`organization: ${created.organizationId}\nadmin: ${created.adminEmail}`);
      if (created.generated) console.log(`password: ${created.password} (shown once)`);
    } else if (command === 'credits:grant') {
      const amount = Number(values.amount);
      if (!values.org || !(amount > 0)) throw new Error('credits:grant needs --org and a positive --amount');
      const [org] = await database.db.select().from(organizations).where(eq(organizations.id, values.org));
      if (!org) throw new Error(`no organization ${values.org}`);
      await createCreditsService({ db: database.db }).grantExtra(
        org.id,
        amount,
        'Granted from the command line',
      );
      console.log(`granted ${amount} extra credits to ${org.name}`);
    } else {
      throw new Error(`unknown command ${command}\n\n${HELP}`);
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
