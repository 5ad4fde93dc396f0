import type { RequestHandler } from 'express';
import { NotFoundError } from '@tolk/errors';

// `.` and `..` segments, also percent-encoded.
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * Routing and authorisation are decided on the path the gateway sees; a path with dot segments
 * could mean another route to a service or HTTP client that normalises it. No real client sends
 * one, so it is simply not found.
 */
export const rejectDotSegments: RequestHandler = (req, _res, next) => {
  if (DOT_SEGMENT.test(req.path)) throw new NotFoundError(`No route for ${req.method} ${req.path}`);
  next();
};
