import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Creates an empty database on the test PostgreSQL server and returns its URL, so that each test
 * file works in isolation on the one server the global setup started.
 */
export async function createTestDatabase(adminUrl: string): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
