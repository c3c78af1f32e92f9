import {
  invitationAnswer,
  createUserAnswer,
  createUserBody,
  idParams,
  messageBody,
  updateProfileBody,
  updateUserBody,
  userAnswer,
  userRolesAnswer,
  usersAnswer,
  workspaceMembersAnswer,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMINS, ALL_ROLES, BUILDERS, principalOf } from '../plugins/auth';
import { AUTHED, errorAnswers } from './responses';

const tags = ['users'];

const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.users;

  app.get(
    '/users/roles',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'Application roles',
        response: { 200: userRolesAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async () => ({ user_roles: await service.roles() }),
  );

  app.get(
    '/users',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: 'Users of the organization',
        response: { 200: usersAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async (request) => ({ users: await service.list(principalOf(request)) }),
  );

  app.get(
    '/users/workspace/:id',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'Members of a workspace with their workspace role',
        params: idParams,
        response: { 200: workspaceMembersAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({
      users: await app.services.workspaces.members(principalOf(request), request.params.id),
    }),
  );

  app.get(
    '/users/details/me',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'The logged-in user',
        response: { 200: userAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async (request) => ({ user: await service.me(principalOf(request)) }),
  );

  app.get(
    '/users/:id',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'A user of the organization (users may only read themselves)',
        params: idParams,
        response: { 200: userAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ user: await service.get(principalOf(request), request.params.id) }),
  );

  app.post(
    '/users',
    {
      config: { access: { roles: ADMINS } },
      schema: {
        tags,
        summary: 'Create a user; without a password an invitation is mailed',
        body: createUserBody,
        response: { 201: createUserAnswer, ...errorAnswers(...AUTHED, 409) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(principalOf(request), request.body)),
  );

  app.post(
    '/users/:id/invitation',
    {
      config: { access: { roles: ADMINS } },
      schema: {
        tags,
        summary: 'Send a new invitation to a user who has not completed onboarding',
        params: idParams,
        response: { 200: invitationAnswer, ...errorAnswers(...AUTHED, 404, 409) },
      },
    },
    async (request) => service.resendInvitation(principalOf(request), request.params.id),
  );

  app.put(
    '/users/:id',
    {
      config: { access: { roles: ADMINS } },
      schema: {
        tags,
        summary: 'Update a user',
        params: idParams,
        body: updateUserBody,
        response: { 204: z.null(), ...errorAnswers(...AUTHED, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.update(principalOf(request), request.params.id, request.body);
      return reply.status(204).send(null);
    },
  );

  app.patch(
    '/users/profile/me',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'Update my profile (names, job title, language)',
        body: updateProfileBody,
        response: { 200: messageBody, ...errorAnswers(...AUTHED) },
      },
    },
    async (request) => {
      await service.updateProfile(principalOf(request), request.body);
      return { message: 'Profile updated' };
    },
  );

  app.delete(
    '/users/:id',
    {
      config: { access: { roles: ADMINS } },
      schema: {
        tags,
        summary: 'Delete a user',
        params: idParams,
        response: { 204: z.null(), ...errorAnswers(...AUTHED, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.remove(principalOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

export default usersRoutes;
