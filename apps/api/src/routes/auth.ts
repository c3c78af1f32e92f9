import {
  loginBody,
  messageBody,
  onboardingCompleteBody,
  onboardingInfo,
  onboardingParams,
  refreshBody,
  requestPasswordResetBody,
  setPasswordBody,
  tokenAnswer,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginKeys } from '../plugins/rate-limits';
import { errorAnswers } from './responses';

const tags = ['authentication'];

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sessions, accounts } = app.services;

  app.post(
    '/token',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Log in with email and password',
        security: [],
        body: loginBody,
        response: { 200: tokenAnswer, ...errorAnswers(401, 422, 429) },
      },
    },
    async (request) => {
      const { account, accountAddress } = loginKeys(request.body.email, request.ip);
      await app.rateLimits.consume('loginIp', request.ip);
      await app.rateLimits.check('loginAccountAddress', accountAddress);
      if (!(await app.rateLimits.seen('loginKnownAddress', accountAddress))) {
        await app.rateLimits.check('loginAccount', account);
      }
      try {
        const { tokens } = await sessions.login(request.body.email, request.body.password);
        await app.rateLimits.reset('loginAccountAddress', accountAddress);
        await app.rateLimits.consume('loginKnownAddress', accountAddress);
        return tokens;
      } catch (error) {
        await app.rateLimits.consume('loginAccountAddress', accountAddress).catch(() => undefined);
        await app.rateLimits.consume('loginAccount', account).catch(() => undefined);
        throw error;
      }
    },
  );

  app.post(
    '/token/refresh',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Exchange a refresh token for new tokens (the refresh token rotates)',
        security: [],
        body: refreshBody,
        response: { 200: tokenAnswer, ...errorAnswers(401, 422) },
      },
    },
    async (request) => sessions.refresh(request.body.refresh_token),
  );

  app.post(
    '/token/revoke',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "Log out: revoke the refresh token's session and end all the user's access tokens",
        security: [],
        body: refreshBody,
        response: { 204: z.null(), ...errorAnswers(422) },
      },
    },
    async (request, reply) => {
      await sessions.revoke(request.body.refresh_token);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/request-password-reset',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Mail a password reset link (answers 200 whether or not the account exists)',
        security: [],
        body: requestPasswordResetBody,
        response: { 200: messageBody, ...errorAnswers(422, 429) },
      },
    },
    async (request) => {
      await app.rateLimits.consume('resetIp', request.ip);
      await app.rateLimits.consume('resetAccount', request.body.email.toLowerCase());
      await accounts.requestPasswordReset(request.body.email);
      return { message: 'If an account exists for this email, a reset link has been sent.' };
    },
  );

  app.post(
    '/auth/set-password',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Set a new password with a reset token',
        security: [],
        body: setPasswordBody,
        response: { 200: messageBody, ...errorAnswers(404, 409, 410, 422) },
      },
    },
    async (request) => {
      await accounts.setPassword(request.body.token, request.body.password);
      return { message: 'Your password has been changed. You can now log in.' };
    },
  );

  app.get(
    '/users/onboarding/:id',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Check an invitation link: valid (200), used (409), expired (410) or unknown (404)',
        security: [],
        params: onboardingParams,
        response: { 200: onboardingInfo, ...errorAnswers(404, 409, 410) },
      },
    },
    async (request) => accounts.inspectInvitation(request.params.id),
  );

  app.post(
    '/users/onboarding/complete',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Complete onboarding: password, names, job title and terms; answers a session',
        security: [],
        body: onboardingCompleteBody,
        response: { 200: tokenAnswer, ...errorAnswers(404, 409, 410, 422) },
      },
    },
    async (request) => accounts.completeOnboarding(request.body),
  );
};

export default authRoutes;
