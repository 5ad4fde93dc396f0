import { defineCounter } from '@tolk/logger';

const tokenCacheLookups = defineCounter({
  name: 'gateway_token_cache_lookups_total',
  help:
    'Token lookups by cache and result: access tokens (JWT) in memory, a miss is an ECDSA ' +
    'verification; project API tokens in memory, then Redis, whose miss is an introspection by token-service',
  labelNames: ['token', 'cache', 'result'],
});

const membershipCacheLookups = defineCounter({
  name: 'gateway_membership_cache_lookups_total',
  help: 'Membership lookups by result: a hit is answered by Redis, a miss asks project-service',
  labelNames: ['result'],
});

export function noteTokenCacheLookup(
  token: 'access' | 'project',
  cache: 'memory' | 'redis',
  hit: boolean,
): void {
  tokenCacheLookups.inc({ token, cache, result: hit ? 'hit' : 'miss' });
}

export function noteMembershipCacheLookup(hit: boolean): void {
  membershipCacheLookups.inc({ result: hit ? 'hit' : 'miss' });
}
