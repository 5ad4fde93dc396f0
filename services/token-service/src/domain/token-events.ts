import { randomUUID } from 'node:crypto';
import { tokenEventDataSchemas, type EventEnvelope } from '@tolk/contracts';
import type { RevokedToken } from '../data-access/tokens-repository.js';

export const PRODUCER = 'token-service';

/** TokenRevoked (DESIGN §6): the gateway evicts `tokenHash` from its cache when it arrives. */
export function tokenRevokedEvent(token: RevokedToken, occurredAt: number): EventEnvelope {
  const data = tokenEventDataSchemas.TokenRevoked.parse({
    tokenId: token.tokenId,
    projectId: token.projectId,
    tokenHash: token.tokenHash,
  });
  return { id: randomUUID(), type: 'TokenRevoked', occurredAt, producer: PRODUCER, data };
}
