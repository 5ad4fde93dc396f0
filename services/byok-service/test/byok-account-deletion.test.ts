/**
 * A deleted account's provider keys (identity-service's UserDeleted): deleted, once, and none
 * stored for that account afterwards — an access token still in flight cannot store one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, settled } from '@tolk/testing';
import { providerKey, startByokService, type ByokService } from './byok-harness.js';

let service: ByokService;
beforeAll(async () => {
  service = await startByokService();
});
afterAll(async () => {
  await service?.close();
});

async function storedProviders(as: Record<string, string>): Promise<string[]> {
  const response = await service.call('GET', '/v1/user/byok', { as });
  expect(response.status).toBe(200);
  return (response.body.keys as Array<{ provider: string; hasKey: boolean }>)
    .filter((key) => key.hasKey)
    .map((key) => key.provider);
}

describe('UserDeleted', () => {
  it("when an account is deleted, then its keys are deleted and no key is stored for it again; others' keys stay", async () => {
    const leaving = await service.newUser();
    const staying = await service.newUser();
    for (const provider of ['openai', 'anthropic']) {
      expect((await service.put(leaving.as, provider, providerKey())).status).toBe(200);
    }
    expect((await service.put(staying.as, 'openai', providerKey())).status).toBe(200);

    const event = await service.publish('UserDeleted', { userId: leaving.userId });
    await expect
      .poll(() => storedProviders(leaving.as), { ...settled, message: 'the keys deleted' })
      .toEqual([]);

    const again = await service.put(leaving.as, 'openai', providerKey());
    expectError(again, 401, 'UNAUTHORIZED');
    expect(again.body.error.message).toBe('This account has been deleted');
    expect(await service.row(leaving.userId, 'openai')).toBeUndefined();
    expect(await storedProviders(staying.as)).toEqual(['openai']);

    // A redelivery changes nothing.
    await service.publish('UserDeleted', { userId: leaving.userId }, event.id);
    await expect
      .poll(() => service.consumed(event.id), { ...settled, message: 'the duplicate consumed' })
      .toHaveLength(2);
    expect(service.consumed(event.id)).toEqual([true, false]);
  });
});
