import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { malformedRequests, request, sendRawHttp } from '@tolk/testing';
import { REFUSING_URL, signAccessToken, startGateway, startUpstream } from './support.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

describe('what node refuses before the gateway app, through the gateway', () => {
  let identity: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: Gateway;

  beforeAll(async () => {
    identity = await startUpstream();
    gateway = await startGateway({ IDENTITY_SERVICE_URL: identity.url });
  });
  afterAll(async () => {
    await gateway.close();
    await identity.close();
  });

  it.each(malformedRequests('/v1/auth/login'))(
    'when a request has $name, then $status in the envelope, the connection closed, the service never asked',
    async ({ bytes, status, code, message }) => {
      const answer = await sendRawHttp(gateway.url, bytes);

      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['connection']).toBe('close');
      expect(JSON.parse(answer.body)).toEqual({ error: { code, message: expect.stringMatching(message) } });
      expect(answer.closed).toBe(true);
      expect(identity.received).toHaveLength(0);
    },
  );
});

describe('Cache-Control: no-store on every answer of a BYOK route', () => {
  let gateways: Gateway[] = [];
  let byok: Awaited<ReturnType<typeof startUpstream>>;

  beforeAll(async () => {
    byok = await startUpstream();
  });
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
    gateways = [];
    await byok.close();
  });

  async function gatewayWith(env: Record<string, string>): Promise<Gateway> {
    const gateway = await startGateway(env, {
      resolveProjectToken: async () => ({
        kind: 'project_token',
        tokenId: 'tok_1',
        projectId: 'prj_1',
        permissions: 'read_write',
      }),
    });
    gateways.push(gateway);
    return gateway;
  }

  async function expectNoStore(url: string, status: number, headers: Record<string, string> = {}) {
    const response = await request(url, { headers });
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
  }

  it("when the gateway refuses a BYOK request itself (401, 403, 429, 503), then its answer is no-store like the service's", async () => {
    const gateway = await gatewayWith({ BYOK_SERVICE_URL: byok.url, RATE_LIMIT_PER_USER: '1' });
    const user = { authorization: `Bearer ${await signAccessToken({ sub: 'byok-user' })}` };

    await expectNoStore(`${gateway.url}/v1/user/byok/openai`, 401);
    await expectNoStore(`${gateway.url}/v1/user/byok/openai`, 401, { authorization: 'Bearer garbage' });
    await expectNoStore(`${gateway.url}/v1/user/byok`, 403, {
      authorization: 'Bearer tolk_0123456789abcdefghijklmnopqrstuv',
    });
    await expectNoStore(`${gateway.url}/v1/user/byok/openai`, 200, user);
    await expectNoStore(`${gateway.url}/v1/user/byok/openai`, 429, user);

    const down = await gatewayWith({ BYOK_SERVICE_URL: REFUSING_URL });
    await expectNoStore(`${down.url}/v1/user/byok/openai`, 503, user);
  });

  it('when another route refuses, then it is left to the usual caching rules', async () => {
    const gateway = await gatewayWith({ BYOK_SERVICE_URL: byok.url, IDENTITY_SERVICE_URL: byok.url });
    const response = await request(`${gateway.url}/v1/user/me`);
    expect(response.status).toBe(401);
    expect(response.headers.get('cache-control')).toBeNull();
  });
});
