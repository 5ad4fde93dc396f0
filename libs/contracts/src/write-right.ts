/**
 * Names of the advisory locks (`holdAdvisoryLocks` of @tolk/db) that order a write against the
 * revocation of its sender's right to write, across services that share one database but no
 * rows. A service commits a write only after asking the owners of that right (identity-,
 * project-, token-service) in its transaction, holding these locks `shared` from before it asks
 * until it commits; the owner takes the same lock `exclusive` in the transaction that revokes the
 * right. So a revocation either commits first, and the write's question sees it, or waits for the
 * write to commit: no write is stored after its revocation was acknowledged.
 */
export const writeRightLock = {
  /** identity-service deleting the account. */
  account: (userId: string): string => `tolk.write-right.account.${userId}`,
  /** project-service removing the member (the owner removing them, or them leaving). */
  membership: (projectId: string, userId: string): string =>
    `tolk.write-right.membership.${projectId}.${userId}`,
  /** token-service revoking the project API token. */
  token: (tokenId: string): string => `tolk.write-right.token.${tokenId}`,
};
