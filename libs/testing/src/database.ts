import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A database of its own for one test file, created on the shared server and dropped after.
 * Each service then migrates its own schema inside it, exactly as at start.
 */
export async function createTestDatabase(
  postgresUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tolk_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
