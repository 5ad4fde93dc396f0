/** `npm run secrets`: prints fresh production secrets as an .env file (for docker compose). */
import { generateKeyPairSync, randomBytes } from 'node:crypto';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const oneLine = (pem: string) => JSON.stringify(pem.trim()).slice(1, -1);
console.log(`JWT_PRIVATE_KEY="${oneLine(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())}"`);
console.log(`JWT_PUBLIC_KEY="${oneLine(publicKey.export({ type: 'spki', format: 'pem' }).toString())}"`);
console.log(`INTERNAL_JWT_SECRET=${randomBytes(32).toString('base64url')}`);
// byok-service's master key, `kid:base64key`; the id names the day it was made, for rotation.
const keyId = `k${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`;
console.log(`BYOK_MASTER_KEYS=${keyId}:${randomBytes(32).toString('base64')}`);
console.log(`POSTGRES_PASSWORD=${randomBytes(18).toString('base64url')}`);
console.log(`RABBITMQ_PASSWORD=${randomBytes(18).toString('base64url')}`);
