import type { Request, RequestHandler } from 'express';
import { RateLimitedError } from '@tolk/errors';
import { closeAfterRefusal, hasBody } from '../proxy/body-limit.js';

/**
 * A refused upload may retry soon: slots free up as soon as uploads are answered, and an honest
 * client's uploads take seconds, never the minutes a slow one is allowed.
 */
const RETRY_AFTER_SECONDS = 1;

/** Who an upload counts against: the principal once authenticated, else the client's address. */
function uploaderOf(req: Request): string {
  const principal = req.principal;
  if (!principal) return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
  return principal.kind === 'user' ? `user:${principal.userId}` : `token:${principal.tokenId}`;
}

/**
 * At most `maxPerUploader` requests with a body at a time per principal (per client address
 * before authentication), from admission until answered; more is 429 with Retry-After. Bodies
 * are held in the gateway's memory until complete (consumeBody), so without a cap one principal
 * could hold hundreds of slow uploads — and their memory — at once. Counted in this process: each
 * gateway holds its own bodies, so its own count is what bounds them.
 */
export function createUploadSlots(deps: { maxPerUploader: number }): RequestHandler {
  const inFlight = new Map<string, number>();
  return (req, res, next) => {
    if (!hasBody(req)) {
      next();
      return;
    }
    const uploader = uploaderOf(req);
    const held = inFlight.get(uploader) ?? 0;
    if (held >= deps.maxPerUploader) {
      // The unread body is not worth keeping the connection for.
      closeAfterRefusal(req, res);
      throw new RateLimitedError(
        RETRY_AFTER_SECONDS,
        `Too many uploads at once: at most ${deps.maxPerUploader} requests with a body may be in progress per caller`,
      );
    }
    inFlight.set(uploader, held + 1);
    // `close` comes once per response, answered or abandoned.
    res.once('close', () => {
      const left = (inFlight.get(uploader) ?? 1) - 1;
      if (left > 0) inFlight.set(uploader, left);
      else inFlight.delete(uploader);
    });
    next();
  };
}
