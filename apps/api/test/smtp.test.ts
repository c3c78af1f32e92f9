import type { AddressInfo } from 'node:net';
import { sharedTestDatabase } from '@atelier/testkit';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { call, createOrg, testConfig, uniqueEmail } from './helpers';

/** A local SMTP server stands in for the mail relay; the app uses its real nodemailer transport. */
const received: { to: string[]; body: string }[] = [];
let smtp: SMTPServer;
let app: FastifyInstance;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      let body = '';
      stream.on('data', (chunk: Buffer) => (body += chunk.toString()));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), body });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  app = await buildApp({
    config: testConfig({ SMTP_URL: `smtp://127.0.0.1:${port}`, WEB_URL: 'https://atelier.example' }),
    database: await sharedTestDatabase(),
    logger: false,
  });
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('mail over SMTP', () => {
  it('an invitation reaches the SMTP server with its onboarding link', async () => {
    const org = await createOrg(app);
    const email = uniqueEmail('smtp');
    const res = await call(app, 'POST', '/users', {
      token: org.admin.token,
      body: { email, user_role_id: 'user' },
    });
    expect(res.status).toBe(201);
    const mail = received.find((m) => m.to.includes(email));
    expect(mail).toBeDefined();
    // Mailed: the link is in the mail only, not in the answer.
    expect(res.body).toMatchObject({ invitation_url: null, invitation_mailed: true });
    // Quoted-printable may fold long lines; unfold before looking for the link.
    expect(mail!.body.replace(/=\r?\n/g, '')).toMatch(/https:\/\/atelier\.example\/onboarding\/\S+/);
  });
});
