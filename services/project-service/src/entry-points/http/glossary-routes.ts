import type { Router } from 'express';
import {
  createGlossaryEntryRequestSchema,
  replaceGlossaryQuerySchema,
  updateGlossaryEntryRequestSchema,
  type GlossaryEntry,
  type ReplaceGlossaryResponse,
} from '@tolk/contracts';
import { parseInput, pathParam, route, withQuery } from '@tolk/http';
import type { GlossaryEntryRecord } from '../../data-access/glossary-repository.js';
import type { Glossary } from '../../domain/glossary.js';
import { parseGlossaryImport } from './glossary-import.js';

/** An entry as the API gives it: without its project (in the path) and its uniqueness key. */
function toEntryResponse(entry: GlossaryEntryRecord): GlossaryEntry {
  const { projectId: _project, termKey: _termKey, ...response } = entry;
  return response;
}

/** `/v1/projects/{projectId}/glossary`: a project's glossary (see domain/glossary.ts for who may). */
export function addGlossaryRoutes(router: Router, glossary: Glossary): void {
  route(router, '/v1/projects/:projectId/glossary', {
    get: async (req, res) => {
      const entries = await glossary.list(req.principal, pathParam(req, 'projectId'));
      res.json({ entries: entries.map(toEntryResponse) });
    },
    post: async (req, res) => {
      const input = parseInput(createGlossaryEntryRequestSchema, req.body);
      const entry = await glossary.create(req.principal, pathParam(req, 'projectId'), input);
      res.status(201).json(toEntryResponse(entry));
    },
    put: withQuery(replaceGlossaryQuerySchema, async (req, res, { merge }) => {
      const entries = parseGlossaryImport(req.body);
      const result = await glossary.replace(req.principal, pathParam(req, 'projectId'), entries, { merge });
      const answer: ReplaceGlossaryResponse = { ...result, entries: result.entries.map(toEntryResponse) };
      res.json(answer);
    }),
  });

  route(router, '/v1/projects/:projectId/glossary/:entryId', {
    patch: async (req, res) => {
      const changes = parseInput(updateGlossaryEntryRequestSchema, req.body);
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
