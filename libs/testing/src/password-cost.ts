/**
 * identity-service's `PASSWORD_SCRYPT_N` in test systems: about 1 ms a hash where production's
 * takes 100 (most tests sign up several users). identity-service's auth and password tests hold
 * production's cost to its parameters.
 */
export const TEST_PASSWORD_SCRYPT_N = '1024';
