/** The public API of identity-service: accounts, sessions, the command-line (device) login and the signed-in user. */
import { type ServiceApi } from './api-contract.js';
import {
  deleteAccountRequestSchema,
  deviceAuthorizationRequestSchema,
  deviceAuthorizationResponseSchema,
  deviceTokenRequestSchema,
  loginRequestSchema,
  refreshTokenRequestSchema,
  sessionResponseSchema,
  signupRequestSchema,
  userCodeRequestSchema,
  userResponseSchema,
} from './identity.js';

export const identityApi: ServiceApi = {
  tag: 'Auth',
  requestSchemas: {
    SignupRequest: signupRequestSchema,
    LoginRequest: loginRequestSchema,
    RefreshTokenRequest: refreshTokenRequestSchema,
    DeviceAuthorizationRequest: deviceAuthorizationRequestSchema,
    DeviceTokenRequest: deviceTokenRequestSchema,
    UserCodeRequest: userCodeRequestSchema,
    DeleteAccountRequest: deleteAccountRequestSchema,
  },
  responseSchemas: {
    User: userResponseSchema,
    Session: sessionResponseSchema,
    DeviceAuthorization: deviceAuthorizationResponseSchema,
  },
  routes: [
    { path: '/v1/auth/signup', service: 'identity', access: 'public', authAttempt: 'signup' },
    { path: '/v1/auth/login', service: 'identity', access: 'public', authAttempt: 'login' },
    { path: '/v1/auth/refresh', service: 'identity', access: 'public' },
    { path: '/v1/auth/logout', service: 'identity', access: 'public' },
    { path: '/v1/auth/device', service: 'identity', access: 'public' },
    { path: '/v1/auth/device/token', service: 'identity', access: 'public' },
    { path: '/v1/auth/device/approve', service: 'identity', access: 'user' },
    { path: '/v1/auth/device/deny', service: 'identity', access: 'user' },
    { path: '/v1/user/me', service: 'identity', access: 'user' },
  ],
  operations: {
    'POST /v1/auth/signup': {
      operationId: 'signUp',
      summary: 'Create an account',
      description: 'Signs the new user in: the answer holds an access token and a refresh token.',
      requestBody: { schema: signupRequestSchema, required: true },
      success: { status: 201, description: 'The account, signed in', schema: sessionResponseSchema },
      errors: { 409: 'An account with this email already exists (CONFLICT)' },
    },
    'POST /v1/auth/login': {
      operationId: 'logIn',
      summary: 'Sign in with email and password',
      requestBody: { schema: loginRequestSchema, required: true },
      success: { status: 200, description: 'Signed in', schema: sessionResponseSchema },
      errors: {
        401: 'Wrong email or password: one message for both, so addresses cannot be probed (UNAUTHORIZED)',
        429: 'Too many attempts from this address, or failed logins for this email (RATE_LIMITED)',
      },
    },
    'POST /v1/auth/refresh': {
      operationId: 'refreshSession',
      summary: 'Renew the access token',
      description:
        'The refresh token is rotated: the answer holds a new one. Reusing a rotated refresh token ' +
        'revokes its whole family.',
      requestBody: { schema: refreshTokenRequestSchema, required: true },
      success: {
        status: 200,
        description: 'A new access token and refresh token',
        schema: sessionResponseSchema,
      },
      errors: { 401: 'Unknown, expired, revoked or reused refresh token (UNAUTHORIZED)' },
    },
    'POST /v1/auth/logout': {
      operationId: 'logOut',
      summary: 'Sign out: revoke a refresh token',
      requestBody: { schema: refreshTokenRequestSchema, required: true },
      success: { status: 204, description: 'Signed out' },
    },
    'POST /v1/auth/device': {
      operationId: 'startDeviceLogin',
      summary: 'Start a command-line (device) login',
      description:
        'RFC 8628: the CLI shows `userCode` and `verificationUri`, then polls `/v1/auth/device/token` ' +
        'every `interval` seconds while the user approves the login in a signed-in session.',
      requestBody: { schema: deviceAuthorizationRequestSchema, required: false },
      success: {
        status: 200,
        description: 'A device code and the code for the user',
        schema: deviceAuthorizationResponseSchema,
      },
    },
    'POST /v1/auth/device/token': {
      operationId: 'pollDeviceLogin',
      summary: 'Collect the tokens of a device login',
      requestBody: { schema: deviceTokenRequestSchema, required: true },
      success: { status: 200, description: 'Approved: signed in', schema: sessionResponseSchema },
      errors: {
        400:
          'Not yet: AUTHORIZATION_PENDING (keep polling), SLOW_DOWN (polling too fast; wait 5 s more), ' +
          'EXPIRED_TOKEN, ACCESS_DENIED; or VALIDATION_ERROR / INVALID_JSON',
      },
    },
    'POST /v1/auth/device/approve': {
      operationId: 'approveDeviceLogin',
      summary: 'Approve a device login as the signed-in user',
      requestBody: { schema: userCodeRequestSchema, required: true },
      success: { status: 204, description: 'Approved: the CLI receives tokens of this user' },
      errors: {
        404: 'No pending device login with this code: unknown, expired, or already decided (NOT_FOUND)',
      },
    },
    'POST /v1/auth/device/deny': {
      operationId: 'denyDeviceLogin',
      summary: 'Deny a device login',
      requestBody: { schema: userCodeRequestSchema, required: true },
      success: { status: 204, description: 'Denied: the CLI is answered ACCESS_DENIED' },
      errors: {
        404: 'No pending device login with this code: unknown, expired, or already decided (NOT_FOUND)',
      },
    },
    'GET /v1/user/me': {
      operationId: 'getCurrentUser',
      tag: 'User',
      summary: 'The signed-in user',
      success: { status: 200, description: 'The user', schema: userResponseSchema },
    },
    'DELETE /v1/user/me': {
      operationId: 'deleteCurrentUser',
      tag: 'User',
      summary: 'Delete the signed-in account, after a confirmation',
      description:
        'Without `confirm` nothing is deleted: the answer is 409 CONFLICT, whose message names the ' +
        'projects the account is the only owner of, which would be deleted with it (make another ' +
        'member an owner first to keep one). With `{"confirm": "<the account\'s email>"}` the account ' +
        'is deleted: every sign-in (refresh tokens) at once; its memberships, those projects, its ' +
        'provider keys and the project API tokens it created within seconds; and its access tokens ' +
        'are refused by the gateway within a second.',
      requestBody: { schema: deleteAccountRequestSchema, required: false },
      success: { status: 204, description: 'Deleted' },
      errors: {
        400: "`confirm` is not the account's email (VALIDATION_ERROR)",
        409: 'No `confirm`: nothing deleted; the message names the projects that would go (CONFLICT)',
      },
    },
  },
};
