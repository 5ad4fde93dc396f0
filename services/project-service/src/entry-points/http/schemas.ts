/**
 * The request and response schemas of project-service's HTTP API live in @tolk/contracts, so the
 * gateway's OpenAPI document is generated from the very schemas this service validates with.
 */
export {
  addMemberRequestSchema,
  createProjectRequestSchema,
  internalProjectResponseSchema,
  memberListResponseSchema,
  memberResponseSchema,
  membershipResponseSchema,
  projectListResponseSchema,
  projectResponseSchema,
  soleOwnedProjectsResponseSchema,
  updateMemberRequestSchema,
  updateProjectRequestSchema,
  userProjectsResponseSchema,
  type InternalProjectResponse,
  type MemberResponse,
  type MembershipResponse,
  type ProjectResponse,
  type SoleOwnedProjectsResponse,
  type UserProjectsResponse,
} from '@tolk/contracts';
