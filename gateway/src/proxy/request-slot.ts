import type { IncomingMessage } from 'node:http';

/**
 * A private per-request value, stored under a symbol on the request object. Not a WeakMap: its
 * entries outlive their requests until a full GC, which at a thousand requests a second (or with
 * bodies of megabytes) fills the old generation and lengthens every collection.
 */
export function requestSlot<T>(name: string) {
  const key = Symbol(name);
  type WithSlot = IncomingMessage & { [key]?: T };
  return {
    get: (req: IncomingMessage): T | undefined => (req as WithSlot)[key],
    set: (req: IncomingMessage, value: T): void => {
      (req as WithSlot)[key] = value;
    },
  };
}
