import { randomUUID } from 'node:crypto';

/** A new project id: `prj_` and 128 random bits in hex. Opaque to every client. */
export function newProjectId(): string {
  return `prj_${randomUUID().replaceAll('-', '')}`;
}

const PLAUSIBLE_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * Ids from a path are opaque, but neither this service nor identity-service makes one longer than
 * 200 characters or with anything but visible ASCII: such a value names nothing, and is never
 * sent to the database (which refuses some characters outright, e.g. NUL).
 */
export function isPlausibleId(value: string): boolean {
  return PLAUSIBLE_ID.test(value);
}
