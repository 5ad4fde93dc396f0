/**
 * The API reference at `/docs` (Swagger UI, served by the gateway) in real headless Chromium
 * (Debian's `chromium`, driven by playwright-core): it renders the published document under the
 * gateway's Content-Security-Policy, with nothing from another origin and no policy violation.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../../gateway/test/support.js';

const CHROMIUM = '/usr/bin/chromium';

if (!existsSync(CHROMIUM) && process.env.CI) {
  throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
}

describe.skipIf(!existsSync(CHROMIUM))('the API reference in Chromium', { timeout: 60_000 }, () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let browser: Browser;
  /** Console errors, uncaught exceptions and Content-Security-Policy violations of the page. */
  const problems: string[] = [];
  /** Every URL the page asked for. */
  const requested: string[] = [];

  beforeAll(async () => {
    // No service behind it: the page and the document are the gateway's own.
    gateway = await startGateway({});
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  async function openDocs(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => requested.push(request.url()));
    await page.exposeFunction('noteViolation', (violation: string) => problems.push(violation));
    // Run in the page (this file is compiled without the DOM library, hence the text).
    await page.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (event) =>
        window.noteViolation('CSP: ' + event.violatedDirective + ' blocked ' + event.blockedURI));`,
    });
    await page.goto(`${gateway.url}/docs`);
    await page.locator('.opblock-tag-section').first().waitFor();
    return page;
  }

  it('when opened, then every tag of the document is listed, all from this origin and within the policy', async () => {
    const page = await openDocs();
    const tags = await page.locator('.opblock-tag-section h3').allTextContents();
    for (const tag of ['Projects', 'Source Files', 'Locales', 'CLI', 'API Tokens', 'Meta']) {
      expect(tags.some((text) => text.startsWith(tag))).toBe(true);
    }
    expect(requested.length).toBeGreaterThan(0);
    for (const url of requested) {
      if (!url.startsWith('data:')) expect(new URL(url).origin, url).toBe(gateway.url);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('when an operation is expanded, then its parameters are shown', async () => {
    const page = await openDocs();
    const operation = page.locator('#operations-Source_Files-diffSourceVersions');
    await operation.locator('.opblock-summary-control').click();
    const parameters = operation.locator('.parameters .parameter__name');
    await parameters.first().waitFor();
    // Each marked as required (` *`), as the document says.
    const names = (await parameters.allTextContents()).map((name) => name.replace(/\s+/g, ' ').trim());
    expect(names).toEqual(['projectId *', 'from *', 'to *']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('when an unauthenticated operation is tried out, then the live answer of this gateway is shown', async () => {
    const page = await openDocs();
    const operation = page.locator('#operations-Meta-getOpenApiDocument');
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    const live = operation.locator('.live-responses-table .response');
    await expect
      .poll(async () => (await live.locator('.response-col_status').textContent())?.trim())
      .toBe('200');
    expect(await live.locator('.response-col_description').textContent()).toContain('"openapi": "3.1.0"');
    expect(problems).toEqual([]);
    await page.close();
  });
});
