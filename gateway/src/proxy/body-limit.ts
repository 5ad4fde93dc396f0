import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { AppError, PayloadTooLargeError } from '@tolk/http';

function tooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`Request body exceeds the limit of ${maxBytes} bytes`);
}

/**
 * Answers 413 without reading the rest of the body: the connection closes after the answer, so
 * the gateway does not drain (possibly endless) bytes it already refused.
 */
export function closeAfterRefusal(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}

/** A declared Content-Length over the limit is refused before anything reaches a service. */
export function rejectDeclaredOversizedBody(maxBytes: number): RequestHandler {
  return (req, res, next) => {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBytes) {
      closeAfterRefusal(res);
      throw tooLarge(maxBytes);
    }
    next();
  };
}

/**
 * Counts the bytes of a chunked body as they stream through and calls `onExceeded` once, as soon
 * as they pass the limit. Attach before the body is piped anywhere so no chunk goes uncounted.
 */
export function watchStreamedBody(
  req: IncomingMessage,
  maxBytes: number,
  onExceeded: (error: PayloadTooLargeError) => void,
): void {
  if (req.headers['transfer-encoding'] === undefined || req.readableEnded) return;
  let received = 0;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= maxBytes) return;
    req.off('data', onData);
    onExceeded(tooLarge(maxBytes));
  };
  req.on('data', onData);
}

/**
 * Reads a small body into memory, refusing it (413) as soon as it passes `maxBytes`, whether
 * declared by Content-Length or streamed in chunks.
 */
export function readBodyUpTo(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        cleanup();
        req.pause();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, received));
    };
    const onAbort = () => {
      cleanup();
      reject(new AppError('VALIDATION_ERROR', 'Request body was aborted by the client'));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onAbort);
    req.once('close', onAbort);
  });
}
