import pg from 'pg';

/** What the database says after the load: the runs' ends, and whether the books add up. */
export async function audit(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const one = async (text: string) => (await client.query(text)).rows[0] as Record<string, string | null>;
    const runs = await one(`select count(*) as total,
        count(*) filter (where status in ('queued', 'running')) as unfinished,
        count(*) filter (where status = 'succeeded') as succeeded,
        count(*) filter (where status = 'failed') as failed,
        count(*) filter (where status = 'failed' and coalesce(error, '') = '') as failed_silently,
        count(*) filter (where trigger = 'chat') as chat,
        count(*) filter (where trigger = 'chat' and status not in ('queued', 'running')) as chat_ended
      from runs`);
    const messages = await one(`select count(*) filter (where role = 'user') as asked,
        count(*) filter (where role = 'assistant') as answered from messages`);
    const logs = await one(
      `select count(*) as calls, coalesce(sum(credits), 0) as credits from inference_logs`,
    );
    const charges = await one(`select count(*) as charges,
        coalesce(sum((metadata->>'requested')::numeric), 0) as requested,
        coalesce(-sum(monthly_delta + extra_delta), 0) as taken
      from credit_ledger where kind = 'usage'`);
    const n = (v: string | null | undefined) => Number(v ?? 0);
    // Each model call: one log row and one charge of its credits; each question: one answer (its run's
    // answer or error, or the reason it could not start); each chat run ended.
    const parts = {
      logs_vs_charges: Math.abs(n(logs.calls) - n(charges.charges)),
      log_credits_vs_charged: Math.abs(n(logs.credits) - n(charges.requested)),
      charged_vs_taken: Math.abs(n(charges.requested) - n(charges.taken)),
      questions_vs_answers: Math.abs(n(messages.asked) - n(messages.answered)),
      chat_runs_unended: n(runs.chat) - n(runs.chat_ended),
    };
    const mismatch = Object.values(parts).reduce((a, b) => a + b, 0);
    return {
      runs: {
        total: n(runs.total),
        unfinished: n(runs.unfinished),
        succeeded: n(runs.succeeded),
        failed: n(runs.failed),
        failedSilently: n(runs.failed_silently),
      },
      modelCalls: n(logs.calls),
      creditCharges: n(charges.charges),
      messages: { asked: n(messages.asked), answered: n(messages.answered) },
      mismatch,
      parts,
    };
  } finally {
    await client.end();
  }
}

/** Runs not ended yet. */
export async function unfinished(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select count(*) as n from runs where status in ('queued', 'running')`,
    );
    return Number((rows[0] as { n: string }).n);
  } finally {
    await client.end();
  }
}

/** A database of its own for one bench run, dropped at the end. */
export async function freshDatabase(adminUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
