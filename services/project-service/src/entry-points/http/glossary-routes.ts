import { isUtf8 } from 'node:buffer';
import type { Response, Router } from 'express';
import type { z } from 'zod';
import {
  DEFAULT_GLOSSARY_PAGE_SIZE,
  MAX_GLOSSARY_PAGE_SIZE,
  createGlossaryEntryRequestSchema,
  glossaryQuerySchema,
  replaceGlossaryQuerySchema,
  updateGlossaryEntryRequestSchema,
  type GlossaryEntry,
  type GlossaryPage,
  type ReplaceGlossaryResponse,
} from '@tolk/contracts';
import { ValidationError, parseInput } from '@tolk/errors';
import { pathParam, route, withQuery } from '@tolk/http';
import type { GlossaryEntryRecord } from '../../data-access/glossary-repository.js';
import type { Glossary, GlossaryPage as GlossaryPageRecords } from '../../domain/glossary.js';
import { createImportTurns, readGlossaryImport, tooManyLocales } from './glossary-import.js';

/** An entry as the API gives it: without its project (in the path) and its uniqueness key. */
function toEntryResponse(entry: GlossaryEntryRecord): GlossaryEntry {
  const { projectId: _project, termKey: _termKey, ...response } = entry;
  return response;
}

/** An entry's body (POST, PATCH) by its schema, once it is known not to hold too many locales to read. */
function parseEntryBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const locales = tooManyLocales((body as { translations?: unknown } | null | undefined)?.translations);
  if (locales) throw new ValidationError(`body.translations: ${locales}`);
  return parseInput(schema, body);
}

/** A page's `nextCursor`: the term key the next page starts after, opaque to clients. */
function cursorOf(termKey: string): string {
  return Buffer.from(termKey, 'utf8').toString('base64url');
}

function termKeyOf(cursor: string): string {
  const bytes = Buffer.from(cursor, 'base64url');
  // Only what cursorOf writes: its alphabet, unpadded, UTF-8 text without NUL (Postgres text).
  if (bytes.toString('base64url') !== cursor || !isUtf8(bytes) || bytes.includes(0)) {
    throw new ValidationError('query.cursor: must be the nextCursor of an earlier page');
  }
  return bytes.toString('utf8');
}

function toPageResponse(page: GlossaryPageRecords): GlossaryPage {
  return {
    entries: page.entries.map(toEntryResponse),
    total: page.total,
    bytes: page.bytes,
    nextCursor: page.next === undefined ? null : cursorOf(page.next),
  };
}

/** Resolves when the answer can take more, or is closed. */
function drained(res: Response): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * `{"entries":[...]}` with every entry, written a page at a time as the client takes it: what a
 * GET without paging parameters answered before pages existed, so clients of then keep working,
 * while the process holds one page, not the glossary. The first page is read before anything is
 * sent, so that a refusal (401, 404) is still an error answer.
 */
async function sendEveryEntry(res: Response, pages: AsyncGenerator<GlossaryPageRecords>): Promise<void> {
  let page = await pages.next();
  res.type('json');
  res.write('{"entries":[');
  let separator = '';
  while (!page.done) {
    if (page.value.entries.length > 0) {
      const json = page.value.entries.map((entry) => JSON.stringify(toEntryResponse(entry))).join(',');
      if (!res.write(separator + json)) await drained(res);
      separator = ',';
    }
    // A client that left gets no more pages read for it.
    if (res.destroyed) {
      await pages.return(undefined);
      return;
    }
    page = await pages.next();
  }
  res.end(']}');
}

/** How imports take turns (createImportTurns): how many at once, and how long one may take. */
export type GlossaryImportOptions = { atOnce: number; timeoutMs: number };

/** `/v1/projects/{projectId}/glossary`: a project's glossary (see domain/glossary.ts for who may). */
export function addGlossaryRoutes(router: Router, glossary: Glossary, imports: GlossaryImportOptions): void {
  const inTurn = createImportTurns(imports);
  route(router, '/v1/projects/:projectId/glossary', {
    get: withQuery(glossaryQuerySchema, async (req, res, { limit, cursor }) => {
      const projectId = pathParam(req, 'projectId');
      if (limit === undefined && cursor === undefined) {
        await sendEveryEntry(res, glossary.pages(req.principal, projectId, MAX_GLOSSARY_PAGE_SIZE));
        return;
      }
      const page = await glossary.page(req.principal, projectId, {
        after: cursor === undefined ? undefined : termKeyOf(cursor),
        limit: limit ?? DEFAULT_GLOSSARY_PAGE_SIZE,
      });
      res.json(toPageResponse(page));
    }),
    post: async (req, res) => {
      const input = parseEntryBody(createGlossaryEntryRequestSchema, req.body);
      const entry = await glossary.create(req.principal, pathParam(req, 'projectId'), input);
      res.status(201).json(toEntryResponse(entry));
    },
    put: withQuery(replaceGlossaryQuerySchema, async (req, res, { merge }) => {
      const answer: ReplaceGlossaryResponse = await inTurn(req, res, async (awaited) => {
        const entries = await readGlossaryImport(req.rawBody);
        return glossary.replace(req.principal, pathParam(req, 'projectId'), entries, { merge, awaited });
      });
      res.json(answer);
    }),
  });

  route(router, '/v1/projects/:projectId/glossary/:entryId', {
    patch: async (req, res) => {
      const changes = parseEntryBody(updateGlossaryEntryRequestSchema, req.body);
      const entry = await glossary.update(
        req.principal,
        pathParam(req, 'projectId'),
        pathParam(req, 'entryId'),
        changes,
      );
      res.json(toEntryResponse(entry));
    },
    delete: async (req, res) => {
      await glossary.delete(req.principal, pathParam(req, 'projectId'), pathParam(req, 'entryId'));
      res.status(204).end();
    },
  });
}
