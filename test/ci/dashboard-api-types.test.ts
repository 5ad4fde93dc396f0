/**
 * The dashboard declares none of the API's shapes by hand: its types are generated from the
 * OpenAPI document the gateway serves (dashboard/src/api-schema.ts, `npm run api-types`), and the
 * dashboard's own type check holds its pages to them. This holds the file to the document.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_API_TYPES_FILE, dashboardApiTypes } from '../../scripts/dashboard-api-types.js';

describe("the dashboard's types of the API", () => {
  it('when generated again from the document the gateway serves, then they are the ones the dashboard compiles against', async () => {
    const committed = readFileSync(DASHBOARD_API_TYPES_FILE, 'utf8');
    expect(committed, 'dashboard/src/api-schema.ts is behind the API: run `npm run api-types`').toBe(
      await dashboardApiTypes(),
    );
  });
});
