import { z } from 'zod';
import { configLoader, env, serviceEnv } from '@tolk/config';
import { SERVICE_PORTS } from '@tolk/contracts';
import { parseMasterKeys, type MasterKeyring } from './domain/master-keys.js';

/**
 * `BYOK_MASTER_KEYS=kid:base64key,...`, parsed into a keyring; an empty value means unset.
 * Problems name entries and key ids only: no key material ever reaches a message.
 */
const masterKeysSchema = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z
    .string()
    .transform((text, ctx): MasterKeyring => {
      const parsed = parseMasterKeys(text);
      if ('keyring' in parsed) return parsed.keyring;
      for (const problem of parsed.problems) ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    })
    .optional(),
);

const fields = z.object({
  // AMQP_URL: UserDeleted arrives over RabbitMQ: a deleted account's keys are deleted.
  ...serviceEnv(SERVICE_PORTS.byok),
  NODE_ENV: env.nodeEnv(),
  // The first key encrypts every write; the others still decrypt what they encrypted.
  BYOK_MASTER_KEYS: masterKeysSchema,
  // Without BYOK_MASTER_KEYS outside production, a development master key is generated once and
  // kept here.
  TOLK_DATA_DIR: z.string().min(1).default('./.tolk'),
});

type Fields = z.infer<typeof fields>;

/** Production never runs on a generated development key. */
function requireMasterKeysInProduction(
  config: Pick<Fields, 'NODE_ENV' | 'BYOK_MASTER_KEYS'>,
  ctx: z.RefinementCtx,
): void {
  if (config.NODE_ENV === 'production' && config.BYOK_MASTER_KEYS === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['BYOK_MASTER_KEYS'],
      message:
        'is required when NODE_ENV=production (kid:base64key,...; `npm run secrets` makes one); ' +
        'a generated development key is refused',
    });
  }
}

export const configSchema = fields.superRefine(requireMasterKeysInProduction);

export type ByokConfig = z.infer<typeof configSchema>;

/** The whole configuration of the service, parsed once and frozen; every problem listed at once. */
export const loadByokConfig = configLoader(configSchema);

export { loadMigrationConfig } from '@tolk/config';

const rotationFields = fields.pick({
  NODE_ENV: true,
  DATABASE_URL: true,
  BYOK_MASTER_KEYS: true,
  TOLK_DATA_DIR: true,
  LOG_LEVEL: true,
});

/** `npm run byok:rotate` needs the database and the master keys, not the internal secret. */
export const loadRotationConfig = configLoader(rotationFields.superRefine(requireMasterKeysInProduction));
