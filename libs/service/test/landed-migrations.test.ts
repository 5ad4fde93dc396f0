/**
 * Migrations never change once landed: each service's migrations/landed.json holds the SHA-256 of
 * every landed file, and a file whose bytes differ from it fails here, before any database
 * refuses it. A new migration is added to the manifest in the commit that adds it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANDED_MANIFEST, readLandedManifest, sha256 } from '@tolk/db';

const SERVICES = path.resolve(import.meta.dirname, '../../../services');

async function serviceMigrations(): Promise<Array<{ service: string; directory: string; files: string[] }>> {
  const found = [];
  for (const service of (await readdir(SERVICES)).sort()) {
    const directory = path.join(SERVICES, service, 'migrations');
    const entries = await readdir(directory).catch(() => undefined);
    if (entries) found.push({ service, directory, files: entries.filter((f) => f.endsWith('.sql')).sort() });
  }
  return found;
}

describe("the services' landed migrations", () => {
  it('when a service has migrations, then every file is in its landed.json with the SHA-256 of its bytes', async () => {
    const services = await serviceMigrations();
    expect(services.map((s) => s.service)).toContain('locale-service');
    const differing: string[] = [];
    for (const { service, directory, files } of services) {
      const manifest = await readLandedManifest(directory);
      for (const file of files) {
        const actual = sha256(await readFile(path.join(directory, file)));
        const landed = manifest[file]?.sha256;
        if (landed === undefined) {
          differing.push(
            `${service}/migrations/${file} is new: add "${file}": { "sha256": "${actual}" } to ${LANDED_MANIFEST}`,
          );
        } else if (landed !== actual) {
          differing.push(
            `${service}/migrations/${file} changed after it landed: add a new migration instead`,
          );
        }
      }
      for (const file of Object.keys(manifest)) {
        if (!files.includes(file)) differing.push(`${service}/migrations/${file} landed and is gone`);
      }
    }
    expect(differing).toEqual([]);
  });

  it('when a service numbers its migrations, then no two files have one number', async () => {
    const shared: string[] = [];
    for (const { service, files } of await serviceMigrations()) {
      const numbers = files.map((file) => file.slice(0, 4));
      for (const [index, number] of numbers.entries()) {
        if (numbers.indexOf(number) !== index) shared.push(`${service}/migrations/${files[index]}`);
      }
      // One numbering: 0001, 0002, … in the order the files run.
      expect(numbers, service).toEqual(files.map((_, index) => String(index + 1).padStart(4, '0')));
    }
    expect(shared).toEqual([]);
  });

  it("when a migration had another name, then that name is no file's and no other migration's", async () => {
    for (const { service, directory, files } of await serviceMigrations()) {
      const formerNames = Object.values(await readLandedManifest(directory)).flatMap((landed) =>
        landed.formerName === undefined ? [] : [landed.formerName],
      );
      expect(new Set(formerNames).size, service).toBe(formerNames.length);
      expect(
        formerNames.filter((name) => files.includes(name)),
        service,
      ).toEqual([]);
    }
  });
});
