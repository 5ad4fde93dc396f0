/** The public API of project-service's projects and their members. */
import { READ_TOKENS, type ServiceApi } from './api-contract.js';
import {
  addMemberRequestSchema,
  createProjectRequestSchema,
  memberListResponseSchema,
  memberResponseSchema,
  projectListResponseSchema,
  projectResponseSchema,
  updateMemberRequestSchema,
  updateProjectRequestSchema,
} from './projects.js';

export const projectsApi: ServiceApi = {
  tag: 'Projects',
  requestSchemas: {
    CreateProjectRequest: createProjectRequestSchema,
    UpdateProjectRequest: updateProjectRequestSchema,
    AddMemberRequest: addMemberRequestSchema,
    UpdateMemberRequest: updateMemberRequestSchema,
  },
  responseSchemas: {
    Project: projectResponseSchema,
    ProjectList: projectListResponseSchema,
    Member: memberResponseSchema,
    MemberList: memberListResponseSchema,
  },
  routes: [
    { path: '/v1/projects', service: 'project', access: 'user' },
    {
      path: '/v1/projects/:projectId',
      service: 'project',
      access: 'user',
      scope: 'project',
      tokens: READ_TOKENS,
    },
    { path: '/v1/projects/:projectId/members{/*rest}', service: 'project', access: 'user', scope: 'project' },
  ],
  operations: {
    'POST /v1/projects': {
      operationId: 'createProject',
      summary: 'Create a project',
      description:
        'The creator becomes its owner. A setting of another name than the known ones is a 400 VALIDATION_ERROR naming it.',
      requestBody: { schema: createProjectRequestSchema, required: true },
      success: { status: 201, description: 'The project', schema: projectResponseSchema },
    },
    'GET /v1/projects': {
      operationId: 'listProjects',
      summary: "The caller's projects, newest first",
      success: {
        status: 200,
        description: 'The projects the caller is a member of',
        schema: projectListResponseSchema,
      },
    },
    'GET /v1/projects/{projectId}': {
      operationId: 'getProject',
      summary: 'A project, with its CLI settings',
      success: { status: 200, description: 'The project', schema: projectResponseSchema },
    },
    'PATCH /v1/projects/{projectId}': {
      operationId: 'updateProject',
      summary: 'Rename a project, change its source locale or settings',
      description:
        'At least one of `name`, `sourceLocale`, `settings`; settings are merged field by field, and a ' +
        'blank or null setting is cleared. A setting of another name is a 400 VALIDATION_ERROR naming it ' +
        '(`settings.fooBar`) and the known ones, and nothing is stored. In `settings.keyRules` each list given (`humanOnly`, ' +
        '`neverTranslate`, `exclude`) replaces that list and a list left out stays; an invalid glob, an ' +
        'empty pattern, a pattern over 500 characters or more than 200 patterns in a list is a 400 ' +
        'VALIDATION_ERROR naming the list, the pattern and the problem, and nothing is stored.',
      requestBody: { schema: updateProjectRequestSchema, required: true },
      success: { status: 200, description: 'The project as changed', schema: projectResponseSchema },
      errors: { 403: 'Only an owner may change the project, and only with an access token (FORBIDDEN)' },
    },
    'DELETE /v1/projects/{projectId}': {
      operationId: 'deleteProject',
      summary: 'Delete a project and all of its data',
      success: { status: 204, description: 'Deleted, in every service' },
      errors: { 403: 'Only an owner may delete the project, and only with an access token (FORBIDDEN)' },
    },
    'GET /v1/projects/{projectId}/members': {
      operationId: 'listMembers',
      summary: 'The members of a project',
      success: { status: 200, description: 'The members', schema: memberListResponseSchema },
    },
    'POST /v1/projects/{projectId}/members': {
      operationId: 'addMember',
      summary: 'Add a member by email',
      requestBody: { schema: addMemberRequestSchema, required: true },
      success: { status: 201, description: 'The new member', schema: memberResponseSchema },
      errors: {
        403: 'Only an owner may add members, and only with an access token (FORBIDDEN)',
        404: 'No such project, or no account has this email: they need to sign up first (NOT_FOUND)',
        409: 'Already a member (CONFLICT)',
      },
    },
    'DELETE /v1/projects/{projectId}/members/{userId}': {
      operationId: 'removeMember',
      summary: 'Remove a member, or leave the project',
      success: { status: 204, description: 'Removed' },
      errors: {
        403: 'A member who is not an owner may only remove themselves (FORBIDDEN)',
        404: 'No such project, or that user is not a member of it (NOT_FOUND)',
        409: 'The last owner cannot leave: add another owner first, or delete the project (CONFLICT)',
      },
    },
    'PATCH /v1/projects/{projectId}/members/{userId}': {
      operationId: 'changeMemberRole',
      summary: "Change a member's role",
      description:
        'Owners only. A project always keeps an owner: demoting the last one is refused. The ' +
        'gateway applies the new role within about a second.',
      requestBody: { schema: updateMemberRequestSchema, required: true },
      success: { status: 200, description: 'The member with the new role', schema: memberResponseSchema },
      errors: {
        403: 'Only an owner may change roles, and only with an access token (FORBIDDEN)',
        404: 'No such project, or that user is not a member of it (NOT_FOUND)',
        409: 'The last owner cannot be demoted: make another member an owner first (CONFLICT)',
      },
    },
  },
};
