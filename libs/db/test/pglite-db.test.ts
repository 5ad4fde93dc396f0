import { describe, expect, it } from 'vitest';
import { openEmbeddedPostgres } from '@tolk/db';

describe('openEmbeddedPostgres', () => {
  it('when bytea (a whole buffer, or a view into one) is written and read back, then the bytes are the same', async () => {
    const postgres = await openEmbeddedPostgres();
    try {
      const db = postgres.forSchema('public');
      await db.query('CREATE TABLE blobs (id int PRIMARY KEY, content bytea NOT NULL)');
      const bytes = Buffer.alloc(3 * 1024 * 1024);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
      const slice = bytes.subarray(5, bytes.length - 5);
      await db.query('INSERT INTO blobs (id, content) VALUES (1, $1), (2, $2)', [bytes, slice]);
      const { rows } = await db.query<{ content: Buffer }>('SELECT content FROM blobs ORDER BY id');
      expect(rows[0]!.content.equals(bytes)).toBe(true);
      expect(rows[1]!.content.equals(slice)).toBe(true);
    } finally {
      await postgres.close();
    }
  });
});
