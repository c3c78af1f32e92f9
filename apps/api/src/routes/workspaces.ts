import {
  createWorkspaceAnswer,
  idParams,
  messageBody,
  updateUserWorkspaceRoleBody,
  userWorkspaceRoleBody,
  userWorkspaceRoleParams,
  workspaceBody,
  workspaceRolesAnswer,
  workspacesAnswer,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ALL_ROLES, BUILDERS, principalOf } from '../plugins/auth';
import { AUTHED, errorAnswers } from './responses';

const tags = ['workspaces'];

const workspacesRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.workspaces;

  app.get(
    '/workspace_roles',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'Workspace roles',
        response: { 200: workspaceRolesAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async () => ({ workspace_roles: await service.roles() }),
  );

  app.get(
    '/workspaces',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'Workspaces visible to me, with my role in each',
        response: { 200: workspacesAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async (request) => ({ workspaces: await service.list(principalOf(request)) }),
  );

  app.post(
    '/workspaces',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: 'Create a workspace (I become its admin)',
        body: workspaceBody,
        response: { 201: createWorkspaceAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ workspace_id: await service.create(principalOf(request), request.body.name) }),
  );

  app.put(
    '/workspaces/:id',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'Rename a workspace (organization admins and workspace admins)',
        params: idParams,
        body: workspaceBody,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.rename(principalOf(request), request.params.id, request.body.name);
      return { message: 'Workspace updated' };
    },
  );

  app.delete(
    '/workspaces/:id',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'Delete a workspace and everything in it (organization admins and workspace admins)',
        params: idParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.remove(principalOf(request), request.params.id);
      return { message: 'Workspace deleted' };
    },
  );

  app.post(
    '/user_workspace_roles',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: 'Give a user of the organization a role in a workspace',
        body: userWorkspaceRoleBody,
        response: { 201: messageBody, ...errorAnswers(...AUTHED, 404, 409) },
      },
    },
    async (request, reply) => {
      const { user_id, workspace_id, workspace_role_id } = request.body;
      await service.addMember(principalOf(request), workspace_id, user_id, workspace_role_id);
      return reply.status(201).send({ message: 'Access granted' });
    },
  );

  app.put(
    '/user_workspace_roles/:user_id/:workspace_id',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: "Change a member's workspace role",
        params: userWorkspaceRoleParams,
        body: updateUserWorkspaceRoleBody,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404, 409) },
      },
    },
    async (request) => {
      const { user_id, workspace_id } = request.params;
      await service.changeMemberRole(
        principalOf(request),
        workspace_id,
        user_id,
        request.body.workspace_role_id,
      );
      return { message: 'Role updated' };
    },
  );

  app.delete(
    '/user_workspace_roles/:user_id/:workspace_id',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: "Remove a member's access to a workspace",
        params: userWorkspaceRoleParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404, 409) },
      },
    },
    async (request) => {
      const { user_id, workspace_id } = request.params;
      await service.removeMember(principalOf(request), workspace_id, user_id);
      return { message: 'Access removed' };
    },
  );
};

export default workspacesRoutes;
