/**
 * The web dashboard in real headless Chromium (Debian's `chromium`, driven by playwright-core),
 * against the real system: gateway serving dashboard/dist in front of every service, on real
 * Postgres, RabbitMQ and Redis — and embedded, as `npm start` runs it on a fresh clone, the
 * scenarios that prove it serves a working dashboard. A screenshot of every page goes to
 * test-artifacts/screenshots/ (the embedded run's last, for the pages it visits).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DASHBOARD_DIST_DIR, ensureDashboardBuilt } from '../../scripts/dashboard.js';
import { startSystem } from '../e2e/system.js';
import { startEmbeddedSystem } from '../embedded/embedded-harness.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = path.resolve(import.meta.dirname, '..', '..', 'test-artifacts', 'screenshots');
const PASSWORD = 'correct horse battery';
const PHONE = { width: 390, height: 844 };

if (!existsSync(CHROMIUM) && process.env.CI) {
  throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
}

type Account = { email: string; accessToken: string };

/** What code run in the page (`page.evaluate`) sees; this file is compiled without the DOM library. */
type InPage = {
  localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  document: { activeElement: unknown; documentElement: { scrollWidth: number } };
  innerWidth: number;
};

/** What the tests need of a running Tolk: its URL and a way to call its API. */
type System = {
  base: string;
  call: Awaited<ReturnType<typeof startSystem>>['call'];
  close(): Promise<void>;
};

const GATEWAY_ENV = { DASHBOARD_DIR: DASHBOARD_DIST_DIR, RATE_LIMIT_AUTH_PER_IP: '1000' };

/**
 * On the servers every scenario; as `npm start` runs it on a fresh clone (embedded: one process,
 * PGlite, the in-process bus) those that prove it serves a working dashboard: the app under its
 * CSP, signing up, in and out, a project page, the CLI's device login, and no page error. The
 * other pages behave the same whichever way the services run, and test/embedded holds the
 * embedded API to the servers' answers (events, tokens, provider keys, account deletion).
 */
const SYSTEMS: Array<[string, () => Promise<System>, { everyScenario: boolean }]> = [
  [
    'on the servers',
    () => startSystem({ sources: true, tokens: true, byok: true, gatewayEnv: GATEWAY_ENV }),
    { everyScenario: true },
  ],
  ['embedded', () => startEmbeddedSystem({ gatewayEnv: GATEWAY_ENV }), { everyScenario: false }],
];

// One Chromium for both systems; each test opens contexts of its own.
let launched: Promise<Browser> | undefined;
function launchBrowser(): Promise<Browser> {
  launched ??= chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  return launched;
}
afterAll(async () => {
  await (await launched)?.close();
});

describe.skipIf(!existsSync(CHROMIUM)).each(SYSTEMS)(
  'the web dashboard in Chromium, %s',
  { timeout: 90_000 },
  (_mode, start, { everyScenario }) => {
    /** A scenario run on the servers only (see SYSTEMS). */
    function onTheServers(name: string, scenario: () => Promise<void>): void {
      if (everyScenario) it(name, scenario);
    }

    let system: System;
    let browser: Browser;
    const contexts: BrowserContext[] = [];
    /** Console errors and uncaught exceptions of every page (CSP violations are console errors). */
    const pageErrors: string[] = [];

    beforeAll(async () => {
      await ensureDashboardBuilt();
      await mkdir(SCREENSHOTS, { recursive: true });
      [system, browser] = await Promise.all([start(), launchBrowser()]);
    }, 120_000);

    afterAll(async () => {
      // Together: one after the other, the two dozen of the servers' block took 2 s.
      await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
      await system?.close();
    });

    // A failing test leaves a screenshot of each of its pages.
    let testPages: Page[] = [];
    beforeEach(() => {
      testPages = [];
    });
    afterEach(async (context) => {
      if (context.task.result?.state !== 'fail') return;
      const name = context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
      for (const [index, page] of testPages.entries()) {
        await page
          .screenshot({ path: path.join(SCREENSHOTS, `failed-${name}-${index}.png`), fullPage: true })
          .catch(() => undefined);
      }
    });

    async function api(method: string, route: string, token?: string, body?: unknown) {
      const response = await system.call(method, route, token, body);
      return response;
    }

    async function newAccount(): Promise<Account> {
      const email = `user-${randomUUID()}@example.com`;
      const response = await api('POST', '/v1/auth/signup', undefined, { email, password: PASSWORD });
      expect(response.status).toBe(201);
      return { email, accessToken: response.body.accessToken };
    }

    /**
     * A project every service has heard of: source- and locale-service learn of it from its event
     * and answer 503 until then, which a page opened at once would log as a failed load.
     */
    async function newProject(account: Account, name = 'Storefront'): Promise<string> {
      const response = await api('POST', '/v1/projects', account.accessToken, { name, sourceLocale: 'en' });
      expect(response.status).toBe(201);
      const projectId: string = response.body.projectId;
      await expect
        .poll(
          async () =>
            Promise.all(
              ['/locales', '/source'].map(
                async (route) =>
                  (await api('GET', `/v1/projects/${projectId}${route}`, account.accessToken)).status,
              ),
            ),
          { timeout: 15_000 },
        )
        .not.toContain(503);
      return projectId;
    }

    async function newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
      const context = await browser.newContext({ viewport, isMobile: viewport.width < 500 });
      contexts.push(context);
      const page = await context.newPage();
      testPages.push(page);
      page.setDefaultTimeout(15_000);
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) {
          pageErrors.push(`${page.url()}: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
      return page;
    }

    /**
     * A page signed in as the account: a session of its own (refresh tokens rotate, and reusing one
     * ends its family), its refresh token stored as the dashboard keeps it.
     */
    async function signedInPage(
      account: Account,
      viewport?: { width: number; height: number },
    ): Promise<Page> {
      const login = await api('POST', '/v1/auth/login', undefined, {
        email: account.email,
        password: PASSWORD,
      });
      expect(login.status).toBe(200);
      const page = await newPage(viewport);
      // A page of the origin without the app, which would use the token itself.
      await page.goto(`${system.base}/healthz`);
      await page.evaluate(
        (token) => (globalThis as unknown as InPage).localStorage.setItem('tolk.refreshToken', token),
        login.body.refreshToken,
      );
      return page;
    }

    async function screenshot(page: Page, name: string): Promise<void> {
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
    }

    async function heading(page: Page, name: string | RegExp): Promise<void> {
      await page.getByRole('heading', { level: 1, name }).waitFor();
    }

    /** A signed-in page on the Glossary tab of the project named `name`. */
    async function glossaryTab(account: Account, projectId: string, name: string): Promise<Page> {
      const page = await signedInPage(account);
      await page.goto(`${system.base}/projects/${projectId}`);
      await heading(page, name);
      await page
        .getByRole('navigation', { name: 'Project sections' })
        .getByRole('link', { name: 'Glossary' })
        .click();
      return page;
    }

    /** The refresh token as the dashboard keeps it. */
    function storedRefreshToken(page: Page): Promise<string | null> {
      return page.evaluate(() => (globalThis as unknown as InPage).localStorage.getItem('tolk.refreshToken'));
    }

    async function isFocused(locator: Locator): Promise<boolean> {
      return locator.evaluate(
        (element) => element === (globalThis as unknown as InPage).document.activeElement,
      );
    }

    /** Reloads until the locator shows up: the system updates locale status from events. */
    async function reloadUntil(page: Page, locator: () => Locator, timeoutMs = 15_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          await locator().waitFor({ timeout: 1000 });
          return;
        } catch (err) {
          if (Date.now() > deadline) throw err;
          await page.reload();
        }
      }
    }

    it('when the app is served, then it loads from this origin only, under its CSP, small', async () => {
      const page = await newPage();
      const response = await page.goto(`${system.base}/`);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      await heading(page, 'Sign in');
      const requested = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((entry) => entry.name),
      );
      expect(requested.every((url) => url.startsWith(system.base))).toBe(true);
      expect(pageErrors).toEqual([]);
    });

    it('when a new user signs up in the browser, then they land on their projects; signing out ends the session', async () => {
      const taken = await newAccount();
      const page = await newPage();
      await page.goto(`${system.base}/`);
      await page.waitForURL(/\/signin$/);
      await heading(page, 'Sign in');
      await screenshot(page, 'signin');

      // The page's heading takes the focus (announced by screen readers); Tab goes on to the form.
      expect(await isFocused(page.getByRole('heading', { level: 1 }))).toBe(true);
      await page.keyboard.press('Tab');
      expect(await isFocused(page.getByLabel('Email'))).toBe(true);
      await page.getByRole('link', { name: 'Create one' }).click();
      await heading(page, 'Create your account');
      await screenshot(page, 'signup');

      // A taken address: the server's own message is shown.
      await page.getByLabel('Email').fill(taken.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByLabel('Password').press('Enter');
      const conflict = await api('POST', '/v1/auth/signup', undefined, {
        email: taken.email,
        password: PASSWORD,
      });
      await page.getByRole('alert').filter({ hasText: conflict.body.error.message }).waitFor();

      const email = `new-${randomUUID()}@example.com`;
      await page.getByLabel('Name').fill('Ada');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').press('Enter');
      await heading(page, 'Projects');
      expect(new URL(page.url()).pathname).toBe('/');
      await page.getByText(email).waitFor();

      // The session survives a reload (refresh token), and signing out ends it.
      await page.reload();
      await heading(page, 'Projects');
      const stored = await storedRefreshToken(page);
      // The page leaves at once; the server's revocation is awaited before the token is tried.
      const loggedOut = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/v1/auth/logout',
      );
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/signin/);
      expect((await loggedOut).status()).toBe(204);
      expect(await storedRefreshToken(page)).toBeNull();
      expect((await api('POST', '/v1/auth/refresh', undefined, { refreshToken: stored })).status).toBe(401);
      await page.reload();
      await heading(page, 'Sign in');
    });

    it('when a user creates a project and adds a locale, then both show, and a refused locale shows the server message', async () => {
      const account = await newAccount();
      const page = await signedInPage(account);
      await page.goto(`${system.base}/`);
      await heading(page, 'Projects');
      await page.getByText('No projects yet').waitFor();

      await page.getByLabel('Project name').fill('Web shop');
      await page.getByLabel('Source locale').fill('en');
      await page.getByRole('button', { name: 'Create project' }).click();
      await heading(page, 'Web shop');
      await page.getByText('No source file yet').waitFor();

      await page.getByLabel('Add a target locale').fill('de');
      await page.getByLabel('Add a target locale').press('Enter');
      await page.locator('tr[data-locale="de"]').waitFor();

      // The source locale cannot be a target: the gateway's answer, word for word.
      const projectId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
      const refused = await api('POST', `/v1/projects/${projectId}/locales`, account.accessToken, {
        locale: 'en',
      });
      expect(refused.status).toBe(400);
      await page.getByLabel('Add a target locale').fill('en');
      await page.getByRole('button', { name: 'Add locale' }).click();
      await page.getByRole('alert').filter({ hasText: refused.body.error.message }).waitFor();
      await screenshot(page, 'project');

      await page.getByRole('link', { name: 'Projects', exact: true }).click();
      await heading(page, 'Projects');
      await page.getByRole('link', { name: 'Web shop' }).waitFor();
      await page
        .locator('.badge')
        .filter({ hasText: /behind|up to date|No target/ })
        .first()
        .waitFor();
      await screenshot(page, 'projects');
    });

    onTheServers(
      'when a source is pushed through the API, then the locale goes behind and the history shows the key-level diff and the renames',
      async () => {
        const account = await newAccount();
        const projectId = await newProject(account, 'Mobile app');
        const base = `/v1/projects/${projectId}`;
        expect((await api('POST', `${base}/locales`, account.accessToken, { locale: 'de' })).status).toBe(
          201,
        );
        const v1 = { home: { title: 'Welcome', subtitle: 'Shop now' }, cart: 'Cart' };
        expect((await api('PUT', `${base}/source`, account.accessToken, v1)).status).toBe(200);
        const german = { home: { title: 'Willkommen', subtitle: 'Jetzt einkaufen' }, cart: 'Warenkorb' };
        // Translations are accepted once the locale has heard of version 1.
        await expect
          .poll(
            async () =>
              (
                await api(
                  'PUT',
                  `${base}/locales/de/translations?sourceVersion=1`,
                  account.accessToken,
                  german,
                )
              ).status,
            {
              timeout: 15_000,
            },
          )
          .toBe(200);

        const page = await signedInPage(account);
        await page.goto(`${system.base}/projects/${projectId}`);
        await heading(page, 'Mobile app');
        const row = () => page.locator('tr[data-locale="de"]');
        await reloadUntil(page, () => row().getByText('up to date'));

        // `cart` renamed to `basket` (same value): its translation is carried over (DESIGN §13).
        const v2 = { home: { title: 'Welcome back' }, basket: 'Cart', checkout: 'Checkout' };
        const pushed = await api('PUT', `${base}/source`, account.accessToken, v2);
        expect(pushed.body.diff).toEqual({
          added: ['basket', 'checkout'],
          modified: ['home.title'],
          deleted: ['home.subtitle', 'cart'],
        });
        await reloadUntil(page, () => row().getByText('behind'));
        await row().getByText('v1 / v2').waitFor();
        await screenshot(page, 'project-behind');

        const phone = await signedInPage(account, PHONE);
        await phone.goto(`${system.base}/projects/${projectId}`);
        await heading(phone, 'Mobile app');
        await phone.locator('tr[data-locale="de"]').waitFor();
        // Nothing wider than the phone: a mobile browser would zoom the whole page out to fit it.
        expect(
          await phone.evaluate(() => [
            (globalThis as unknown as InPage).innerWidth,
            (globalThis as unknown as InPage).document.documentElement.scrollWidth,
          ]),
        ).toEqual([PHONE.width, PHONE.width]);
        await screenshot(phone, 'project-phone');

        await page.getByRole('link', { name: 'Source history' }).click();
        await page.getByRole('heading', { name: 'Version 2' }).waitFor();
        expect(await page.locator('.carried .renames').innerText()).toMatch(
          /^cart →\s+(renamed to\s+)?basket$/,
        );
        const show = page.getByRole('button', { name: 'Show changes of version 2' });
        expect(await show.getAttribute('aria-expanded')).toBe('false');
        await show.focus();
        await page.keyboard.press('Enter');
        const changes = page.locator('#version-2-changes');
        await changes.locator('tr.modified').waitFor();
        expect(await changes.locator('tr.added', { hasText: 'Checkout' }).innerText()).toMatch(
          /added\s+checkout\s+—\s+Checkout/,
        );
        expect(await changes.locator('tr.modified').innerText()).toMatch(
          /modified\s+home\.title\s+Welcome\s+→ Welcome back/,
        );
        expect(await changes.locator('tr.deleted', { hasText: 'home.subtitle' }).innerText()).toMatch(
          /deleted\s+home\.subtitle\s+Shop now\s+—/,
        );
        expect(
          await page.getByRole('button', { name: 'Hide changes of version 2' }).getAttribute('aria-expanded'),
        ).toBe('true');
        await screenshot(page, 'history');

        const phoneHistory = await signedInPage(account, PHONE);
        await phoneHistory.goto(`${system.base}/projects/${projectId}/history`);
        await phoneHistory.getByRole('heading', { name: 'Version 2' }).waitFor();
        await screenshot(phoneHistory, 'history-phone');
      },
    );

    onTheServers(
      'when the translations tab is opened, then keys page with their source and each locale, filtered by state and text',
      async () => {
        const account = await newAccount();
        const projectId = await newProject(account, 'Catalogue');
        const base = `/v1/projects/${projectId}`;
        for (const locale of ['de', 'pl']) {
          expect((await api('POST', `${base}/locales`, account.accessToken, { locale })).status).toBe(201);
        }
        const source = Object.fromEntries(
          Array.from({ length: 120 }, (_, i) => [`item${String(i).padStart(3, '0')}`, `Product ${i}`]),
        );
        expect((await api('PUT', `${base}/source`, account.accessToken, source)).status).toBe(200);
        const german = Object.fromEntries(
          Object.entries(source)
            .slice(0, 60)
            .map(([key, value]) => [key, `Produkt ${value.slice('Product '.length)}`]),
        );
        await expect
          .poll(
            async () =>
              (
                await api(
                  'PUT',
                  `${base}/locales/de/translations?sourceVersion=1`,
                  account.accessToken,
                  german,
                )
              ).status,
            { timeout: 15_000 },
          )
          .toBe(200);

        const page = await signedInPage(account);
        await page.goto(`${system.base}/projects/${projectId}/translations`);
        await heading(page, 'Catalogue');
        await page.getByText('Keys 1–50 of 120').waitFor();
        const first = page.locator('table.translations tbody tr').first();
        await first.getByText('item000').waitFor();
        await first.getByText('Produkt 0').waitFor();
        // Uploaded through the API without a claim: a person's.
        await first.getByText('· person').waitFor();
        expect(await page.locator('table.translations thead th').allTextContents()).toEqual([
          'Key',
          'Source',
          'de',
          'pl',
        ]);

        await page.getByRole('button', { name: 'Next' }).click();
        await page.getByText('Keys 51–100 of 120').waitFor();

        await page.getByLabel('Locale').selectOption('de');
        await page.getByLabel('State').selectOption('missing');
        await page.getByText('Keys 1–50 of 60').waitFor();
        await page.locator('table.translations tbody tr').first().getByText('item060').waitFor();

        await page.getByLabel('Search').fill('product 119');
        await page.getByText('Keys 1–1 of 1').waitFor();
        await page.getByLabel('Search').fill('');
        await page.getByLabel('State').selectOption('');
        await page.getByLabel('Written by').selectOption('human');
        await page.getByText('Keys 1–50 of 60').waitFor();
        await screenshot(page, 'project-translations');
      },
    );

    onTheServers(
      "when a person's translations have findings, then the project counts them and the translations tab shows and filters them",
      async () => {
        const account = await newAccount();
        const projectId = await newProject(account, 'Social');
        const base = `/v1/projects/${projectId}`;
        expect((await api('POST', `${base}/locales`, account.accessToken, { locale: 'pl' })).status).toBe(
          201,
        );
        const source = {
          notifications: '{count, plural, one {# new notification} other {# new notifications}}',
          greeting: 'Hello {name}',
          save: 'Save the file',
        };
        expect((await api('PUT', `${base}/source`, account.accessToken, source)).status).toBe(200);
        const polish = {
          notifications: '{count, plural, one {# powiadomienie} few {# powiadomienia} other {# powiadomień}}',
          greeting: 'Cześć',
          save: 'Zapisz plik',
        };
        await expect
          .poll(
            async () =>
              (
                await api(
                  'PUT',
                  `${base}/locales/pl/translations?sourceVersion=1`,
                  account.accessToken,
                  polish,
                )
              ).status,
            { timeout: 15_000 },
          )
          .toBe(200);

        const page = await signedInPage(account);
        await page.goto(`${system.base}/projects/${projectId}`);
        await heading(page, 'Social');
        const row = page.locator('tr[data-locale="pl"]');
        await row.getByText('up to date').waitFor();
        const headers = await page.locator('table thead th').allTextContents();
        const cells = await row.locator('td').allTextContents();
        expect(cells[headers.indexOf('Errors') - 1]).toBe('1');
        expect(cells[headers.indexOf('Warnings') - 1]).toBe('1');

        await page.goto(`${system.base}/projects/${projectId}/translations`);
        await page.getByText('Keys 1–3 of 3').waitFor();
        await page.getByLabel('Findings').selectOption('error');
        await page.getByText('Keys 1–1 of 1').waitFor();
        const broken = page.locator('table.translations tbody tr').first();
        await broken.getByText('greeting').waitFor();
        await broken.getByText('placeholders differ from the source: lost {name}').waitFor();
        await page.getByLabel('Findings').selectOption('warning');
        await page.getByText('Keys 1–1 of 1').waitFor();
        await page
          .locator('table.translations tbody tr')
          .first()
          .getByText('{count, plural} lacks many (pl: one, few, many, other)')
          .waitFor();
        await screenshot(page, 'project-translations-findings');
      },
    );

    onTheServers(
      'when a project has a glossary entry, then its glossary tab lists it; a refused entry shows the server message, an added one is listed',
      async () => {
        const account = await newAccount();
        const projectId = await newProject(account, 'Shop');
        expect(
          (await api('POST', `/v1/projects/${projectId}/locales`, account.accessToken, { locale: 'de' }))
            .status,
        ).toBe(201);
        const added = await api('POST', `/v1/projects/${projectId}/glossary`, account.accessToken, {
          term: 'cart',
          note: 'the shopping cart',
          translations: { de: 'Warenkorb' },
        });
        expect(added.status).toBe(201);
        const page = await glossaryTab(account, projectId, 'Shop');
        const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'cart' }) });
        await row.getByRole('cell', { name: 'Warenkorb' }).waitFor();
        await row.getByRole('cell', { name: 'the shopping cart' }).waitFor();

        await page.getByRole('button', { name: 'Add an entry' }).click();
        await page.getByLabel('Term').fill('Cart');
        await page.getByRole('button', { name: 'Save entry' }).click();
        await page
          .getByRole('alert')
          .filter({ hasText: 'The glossary already has an entry for "cart"' })
          .waitFor();

        await page.getByLabel('Term').fill('Tolk');
        await page.getByLabel('Keep as is: never translated').check();
        await page.getByRole('button', { name: 'Save entry' }).click();
        await page.getByRole('status').filter({ hasText: '“Tolk” added.' }).waitFor();
        await page.getByRole('rowheader', { name: 'Tolk' }).waitFor();
        const glossary = await api('GET', `/v1/projects/${projectId}/glossary`, account.accessToken);
        expect(
          glossary.body.entries.map((entry: { term: string; keepAsIs: boolean }) => [
            entry.term,
            entry.keepAsIs,
          ]),
        ).toEqual([
          ['cart', false],
          ['Tolk', true],
        ]);
        await screenshot(page, 'glossary');
      },
    );

    onTheServers(
      'when a glossary has more entries than a page, then the tab shows the first 100 and "Show more entries" the next, until all are shown',
      async () => {
        const account = await newAccount();
        const projectId = await newProject(account, 'Big glossary');
        const terms = Array.from({ length: 250 }, (_, i) => `term ${String(i).padStart(3, '0')}`);
        const imported = await api('PUT', `/v1/projects/${projectId}/glossary`, account.accessToken, {
          entries: terms.map((term) => ({ term })),
        });
        expect(imported.status).toBe(200);
        const page = await glossaryTab(account, projectId, 'Big glossary');
        await page.getByText('Showing 100 of 250 entries.').waitFor();
        expect(await page.getByRole('rowheader').allInnerTexts()).toEqual(terms.slice(0, 100));

        await page.getByRole('button', { name: 'Show more entries' }).click();
        await page.getByText('Showing 200 of 250 entries.').waitFor();
        await page.getByRole('button', { name: 'Show more entries' }).click();
        await page.getByRole('rowheader', { name: 'term 249' }).waitFor();
        expect(await page.getByRole('rowheader').allInnerTexts()).toEqual(terms);
        expect(await page.getByRole('button', { name: 'Show more entries' }).count()).toBe(0);

        // A change reads the list again as far as it was shown.
        const last = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'term 249' }) });
        await last.getByRole('button', { name: 'Delete term 249' }).click();
        await page.getByRole('status').filter({ hasText: '“term 249” deleted.' }).waitFor();
        await page.getByRole('rowheader', { name: 'term 248' }).waitFor();
        expect(await page.getByRole('rowheader').count()).toBe(249);
      },
    );

    onTheServers('when an owner edits the settings and adds a member, then the API has them', async () => {
      const account = await newAccount();
      const colleague = await newAccount();
      const projectId = await newProject(account, 'Docs site');
      const page = await signedInPage(account);
      await page.goto(`${system.base}/projects/${projectId}/settings`);
      await heading(page, 'Docs site');
      await page.getByLabel('Name', { exact: true }).fill('Docs website');
      await page.getByLabel('AI provider').selectOption('anthropic');
      await page.getByLabel('Model', { exact: true }).fill('claude-sonnet-4-5');
      await page.getByLabel('Instructions for the translator').fill('Informal tone; never translate "Tolk".');
      const context = page.getByLabel('A changed key description outdates its translations');
      expect(await context.isChecked()).toBe(true);
      await context.uncheck();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
      await heading(page, 'Docs website');
      const saved = await api('GET', `/v1/projects/${projectId}`, account.accessToken);
      expect(saved.body).toMatchObject({
        name: 'Docs website',
        settings: {
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          instructions: 'Informal tone; never translate "Tolk".',
          outdateOnContextChange: false,
        },
      });
      await screenshot(page, 'settings');

      await page.getByRole('link', { name: 'Members' }).click();
      await page.getByRole('cell', { name: 'owner' }).first().waitFor();
      await page.getByLabel("Member's email").fill(colleague.email);
      await page.getByLabel("Member's email").press('Enter');
      await page.getByRole('rowheader', { name: colleague.email }).waitFor();
      const members = await api('GET', `/v1/projects/${projectId}/members`, account.accessToken);
      expect(members.body.members.map((member: { email: string }) => member.email)).toContain(
        colleague.email,
      );
      await screenshot(page, 'members');
    });

    onTheServers(
      'when an owner turns reading i18next plural keys off and on, then each choice is saved and survives a reload; a member cannot change it',
      async () => {
        const account = await newAccount();
        const colleague = await newAccount();
        const projectId = await newProject(account, 'Plural app');
        const added = await api('POST', `/v1/projects/${projectId}/members`, account.accessToken, {
          email: colleague.email,
          role: 'member',
        });
        expect(added.status).toBe(201);
        const setting = async () =>
          (await api('GET', `/v1/projects/${projectId}`, account.accessToken)).body.settings.i18nextPlurals;

        const page = await signedInPage(account);
        await page.goto(`${system.base}/projects/${projectId}/settings`);
        await heading(page, 'Plural app');
        const box = page.getByRole('checkbox', {
          name: 'Read keys like item_one, item_other as i18next plural forms',
        });
        await box.waitFor();
        expect(await box.isChecked()).toBe(true);
        // The explanation is the checkbox's description; each language's forms come from CLDR.
        const help = page.locator(`#${await box.getAttribute('aria-describedby')}`);
        expect(await help.innerText()).toContain('Polish one, few, many, other; Japanese other');

        await box.uncheck();
        await page.getByRole('button', { name: 'Save settings' }).click();
        await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
        expect(await setting()).toBe(false);
        await page.reload();
        await box.waitFor();
        expect(await box.isChecked()).toBe(false);
        await screenshot(page, 'settings-plurals-off');

        await box.check();
        await page.getByRole('button', { name: 'Save settings' }).click();
        await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
        expect(await setting()).toBe(true);
        await page.reload();
        await box.waitFor();
        expect(await box.isChecked()).toBe(true);

        const memberPage = await signedInPage(colleague);
        await memberPage.goto(`${system.base}/projects/${projectId}/settings`);
        await memberPage.getByText("Only the project's owners can change its settings.").waitFor();
        expect(
          await memberPage
            .getByRole('checkbox', { name: 'Read keys like item_one, item_other as i18next plural forms' })
            .isDisabled(),
        ).toBe(true);
      },
    );

    onTheServers(
      "when an owner edits the key rules, then each list is saved one pattern per line, and a bad pattern shows the server's message with nothing stored",
      async () => {
        const account = await newAccount();
        const projectId = await newProject(account, 'Rules app');
        const rules = async () =>
          (await api('GET', `/v1/projects/${projectId}`, account.accessToken)).body.settings.keyRules;

        const page = await signedInPage(account);
        await page.goto(`${system.base}/projects/${projectId}/settings`);
        await heading(page, 'Rules app');
        await page.getByLabel('Keys only people translate').fill('legal.*\n\n  terms.body  ');
        await page.getByLabel('Keys never translated').fill('brand.name\n**.url');
        await page.getByLabel('Keys left out of target locales').fill('debug.**');
        await page.getByRole('button', { name: 'Save settings' }).click();
        await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
        const saved = {
          humanOnly: ['legal.*', 'terms.body'],
          neverTranslate: ['brand.name', '**.url'],
          exclude: ['debug.**'],
        };
        expect(await rules()).toEqual(saved);
        await page.reload();
        const never = page.getByLabel('Keys never translated');
        await never.waitFor();
        expect(await never.inputValue()).toBe('brand.name\n**.url');
        await screenshot(page, 'settings-key-rules');

        await page.getByLabel('Keys left out of target locales').fill('debug.**\nlegal.[');
        await page.getByRole('button', { name: 'Save settings' }).click();
        const alert = page.getByRole('alert');
        await alert.waitFor();
        expect(await alert.innerText()).toContain(
          'body.settings.keyRules.exclude.1: "legal.[" is not a valid glob pattern',
        );
        expect(await rules()).toEqual(saved);
      },
    );

    onTheServers(
      'when an owner deletes a project, then they type its name first and land on their projects without it',
      async () => {
        const account = await newAccount();
        const colleague = await newAccount();
        const projectId = await newProject(account, 'Old landing page');
        await newProject(account, 'Kept project');
        const added = await api('POST', `/v1/projects/${projectId}/members`, account.accessToken, {
          email: colleague.email,
          role: 'member',
        });
        expect(added.status).toBe(201);

        // A member has no danger zone.
        const memberPage = await signedInPage(colleague);
        await memberPage.goto(`${system.base}/projects/${projectId}/settings`);
        await memberPage.getByText("Only the project's owners can change its settings.").waitFor();
        expect(await memberPage.getByRole('heading', { name: 'Danger zone' }).count()).toBe(0);
        expect(await memberPage.getByRole('button', { name: /Delete/ }).count()).toBe(0);

        const page = await signedInPage(account);
        await page.goto(`${system.base}/projects/${projectId}/settings`);
        await page.getByRole('heading', { name: 'Danger zone' }).waitFor();
        await page.getByRole('button', { name: 'Delete this project…' }).click();
        // The field takes the focus; the delete button waits for the exact name.
        const confirmation = page.getByLabel("To confirm, type the project's name");
        await expect.poll(() => isFocused(confirmation)).toBe(true);
        const confirm = page.getByRole('button', { name: 'Delete this project for good' });
        expect(await confirm.isDisabled()).toBe(true);
        await page.keyboard.type('Old landing');
        await page.keyboard.press('Enter');
        expect(await confirm.isDisabled()).toBe(true);
        expect((await api('GET', `/v1/projects/${projectId}`, account.accessToken)).status).toBe(200);

        // Cancel gives the focus back to the button that opened it.
        await page.getByRole('button', { name: 'Cancel' }).click();
        const opener = page.getByRole('button', { name: 'Delete this project…' });
        await expect.poll(() => isFocused(opener)).toBe(true);
        await page.keyboard.press('Enter');
        await expect.poll(() => isFocused(confirmation)).toBe(true);
        expect(await confirmation.inputValue()).toBe('');
        await page.keyboard.type('Old landing page');
        expect(await confirm.isEnabled()).toBe(true);
        await screenshot(page, 'settings-delete');
        await page.keyboard.press('Enter');

        await heading(page, 'Projects');
        expect(new URL(page.url()).pathname).toBe('/');
        await page.getByRole('status').filter({ hasText: 'Project “Old landing page” deleted.' }).waitFor();
        await page.getByRole('link', { name: 'Kept project' }).waitFor();
        expect(await page.getByRole('link', { name: 'Old landing page' }).count()).toBe(0);
        expect((await api('GET', `/v1/projects/${projectId}`, account.accessToken)).status).toBe(404);
        await screenshot(page, 'projects-after-delete');
      },
    );

    onTheServers(
      'when a project is deleted elsewhere while its owner confirms, then the server message shows',
      async () => {
        const account = await newAccount();
        const projectId = await newProject(account, 'Twice deleted');
        const page = await signedInPage(account);
        await page.goto(`${system.base}/projects/${projectId}/settings`);
        await page.getByRole('button', { name: 'Delete this project…' }).click();
        await page.getByLabel("To confirm, type the project's name").fill('Twice deleted');

        expect((await api('DELETE', `/v1/projects/${projectId}`, account.accessToken)).status).toBe(204);
        const gone = await api('DELETE', `/v1/projects/${projectId}`, account.accessToken);
        expect(gone.status).toBe(404);
        await page.getByRole('button', { name: 'Delete this project for good' }).click();
        await page.getByRole('alert').filter({ hasText: gone.body.error.message }).waitFor();
        expect(new URL(page.url()).pathname).toBe(`/projects/${projectId}/settings`);
      },
    );

    onTheServers(
      'when a locale row is opened, then its missing and outdated keys show with their source values, the long list capped',
      async () => {
        const account = await newAccount();
        const projectId = await newProject(account, 'Catalogue');
        const base = `/v1/projects/${projectId}`;
        for (const locale of ['de', 'fr']) {
          expect((await api('POST', `${base}/locales`, account.accessToken, { locale })).status).toBe(201);
        }
        const items = Object.fromEntries(
          Array.from({ length: 203 }, (_, index) => [
            `item${String(index).padStart(3, '0')}`,
            `Item ${index}`,
          ]),
        );
        const v1 = { home: { title: 'Welcome' }, cart: 'Cart', items };
        expect((await api('PUT', `${base}/source`, account.accessToken, v1)).status).toBe(200);
        const german = { home: { title: 'Willkommen' }, cart: 'Warenkorb' };
        await expect
          .poll(
            async () =>
              (
                await api(
                  'PUT',
                  `${base}/locales/de/translations?sourceVersion=1`,
                  account.accessToken,
                  german,
                )
              ).status,
            { timeout: 15_000 },
          )
          .toBe(200);
        const v2 = { ...v1, home: { title: 'Welcome back' } };
        expect((await api('PUT', `${base}/source`, account.accessToken, v2)).status).toBe(200);
        // The locale learns of version 2 from an event.
        await expect
          .poll(async () => (await api('GET', `${base}/locales/de`, account.accessToken)).body.outdated, {
            timeout: 15_000,
          })
          .toEqual(['home.title']);

        const page = await signedInPage(account);
        await page.goto(`${system.base}/projects/${projectId}`);
        await heading(page, 'Catalogue');
        await page.getByText('Source version 2').waitFor();
        const show = page.getByRole('button', { name: 'Show keys of de' });
        expect(await show.getAttribute('aria-expanded')).toBe('false');
        await show.focus();
        await page.keyboard.press('Enter');
        const panel = page.locator('#locale-de-keys');
        const outdated = panel.locator('.key-list.outdated');
        await outdated
          .getByRole('heading', { name: 'Outdated in de (the source changed since): 1' })
          .waitFor();
        expect(await outdated.locator('li').innerText()).toMatch(/home\.title\s+Welcome back/);
        const missing = panel.locator('.key-list.missing');
        await missing.getByRole('heading', { name: 'Missing in de: 203' }).waitFor();
        expect(await missing.locator('li').count()).toBe(200);
        expect(await missing.locator('li').first().innerText()).toMatch(/items\.item000\s+Item 0/);
        expect(await missing.locator('li').last().innerText()).toMatch(/items\.item199\s+Item 199/);
        await missing.getByText('…and 3 more, not shown.').waitFor();
        const hide = page.getByRole('button', { name: 'Hide keys of de' });
        expect(await hide.getAttribute('aria-expanded')).toBe('true');
        expect(await isFocused(hide)).toBe(true);
        await screenshot(page, 'project-keys');

        // Space closes it again.
        await page.keyboard.press('Space');
        await panel.waitFor({ state: 'hidden' });
        expect(await show.getAttribute('aria-expanded')).toBe('false');

        // A locale removed meanwhile: the server's message.
        expect((await api('DELETE', `${base}/locales/fr`, account.accessToken)).status).toBe(204);
        const gone = await api('GET', `${base}/locales/fr`, account.accessToken);
        expect(gone.status).toBe(404);
        await page.getByRole('button', { name: 'Show keys of fr' }).click();
        await page
          .locator('#locale-fr-keys')
          .getByRole('alert')
          .filter({ hasText: gone.body.error.message })
          .waitFor();

        const phone = await signedInPage(account, PHONE);
        await phone.goto(`${system.base}/projects/${projectId}`);
        await heading(phone, 'Catalogue');
        await phone.getByText('Source version 2').waitFor();
        await phone.getByRole('button', { name: 'Show keys of de' }).click();
        await phone.getByText('…and 3 more, not shown.').waitFor();
        expect(
          await phone.evaluate(() => [
            (globalThis as unknown as InPage).innerWidth,
            (globalThis as unknown as InPage).document.documentElement.scrollWidth,
          ]),
        ).toEqual([PHONE.width, PHONE.width]);
        // The lists stay within the phone's width, though the table beside them scrolls sideways.
        const lists = await phone.locator('#locale-de-keys .key-lists').boundingBox();
        expect(lists!.x).toBeGreaterThanOrEqual(0);
        expect(lists!.x + lists!.width).toBeLessThanOrEqual(PHONE.width);
        await screenshot(phone, 'project-keys-phone');
      },
    );

    onTheServers(
      'when a Polish locale lacks an English plural group, then its key list shows the Polish forms with their categories and example numbers',
      async () => {
        const account = await newAccount();
        const created = await api('POST', '/v1/projects', account.accessToken, {
          name: 'Basket',
          sourceLocale: 'en',
          settings: { i18nextPlurals: false },
        });
        expect(created.status).toBe(201);
        const base = `/v1/projects/${created.body.projectId}`;
        expect((await api('POST', `${base}/locales`, account.accessToken, { locale: 'pl' })).status).toBe(
          201,
        );
        const source = { cart: { title: 'Your cart', item_one: 'One item', item_other: '{{count}} items' } };
        expect((await api('PUT', `${base}/source`, account.accessToken, source)).status).toBe(200);
        const missingOfPolish = async () =>
          (await api('GET', `${base}/locales/pl`, account.accessToken)).body.missing;
        // Recognition off: the source's keys, plain.
        await expect
          .poll(missingOfPolish, { timeout: 15_000 })
          .toEqual(['cart.title', 'cart.item_one', 'cart.item_other']);

        const page = await signedInPage(account);
        const openPolishKeys = async () => {
          await page.goto(`${system.base}/projects/${created.body.projectId}`);
          await heading(page, 'Basket');
          await page.getByText('Source version 1').waitFor();
          await page.getByRole('button', { name: 'Show keys of pl' }).click();
          return page.locator('#locale-pl-keys .key-list.missing');
        };
        const item = (list: Locator, key: string) =>
          list.locator('li').filter({ has: page.getByText(key, { exact: true }) });
        let missing = await openPolishKeys();
        await missing.getByRole('heading', { name: 'Missing in pl: 3' }).waitFor();
        expect(await missing.locator('.plural-form').count()).toBe(0);
        expect(await item(missing, 'cart.item_other').innerText()).toMatch(
          /^cart\.item_other\s+\{\{count\}\} items$/,
        );

        const patched = await api('PATCH', base, account.accessToken, { settings: { i18nextPlurals: true } });
        expect(patched.status).toBe(200);
        // The page reads the setting: the source's forms are now shown as plural forms.
        missing = await openPolishKeys();
        await item(missing, 'cart.item_other').locator('.plural-form').waitFor();
        expect(await item(missing, 'cart.item_one').locator('.plural-form').textContent()).toBe(
          'plural form one, e.g. 1',
        );
        expect(await item(missing, 'cart.title').locator('.plural-form').count()).toBe(0);

        // Polish has one, few, many and other: the locale's own keys, where English has one and other.
        const polishForms = ['one', 'few', 'many', 'other'];
        await expect
          .poll(missingOfPolish, { timeout: 15_000 })
          .toEqual(['cart.title', ...polishForms.map((category) => `cart.item_${category}`)]);

        missing = await openPolishKeys();
        await missing.getByRole('heading', { name: 'Missing in pl: 5' }).waitFor();
        const polish = new Intl.PluralRules('pl');
        for (const category of polishForms) {
          const form = item(missing, `cart.item_${category}`);
          // Its category and a number that Polish puts in it (checked against Node's CLDR data).
          const label = (await form.locator('.plural-form').textContent())?.match(
            /^plural form (\w+), e\.g\. ([\d.]+)$/,
          );
          expect(label?.[1]).toBe(category);
          expect(polish.select(Number(label?.[2]))).toBe(category);
          // Labelled with the English form it is translated from: English has no few or many.
          expect(await form.locator('.value').innerText()).toBe(
            category === 'one' ? 'One item' : '{{count}} items',
          );
          expect(await form.locator('.source-form').count()).toBe(
            category === 'few' || category === 'many' ? 1 : 0,
          );
        }
        expect(await item(missing, 'cart.item_few').locator('.source-form').innerText()).toBe(
          "(the source's other form)",
        );
        await screenshot(page, 'project-plural-keys');
      },
    );

    onTheServers(
      'when a token is created, then its value is shown exactly once, it works, and revoking it stops it',
      async () => {
        const account = await newAccount();
        const projectId = await newProject(account, 'Pipeline');
        const page = await signedInPage(account);
        await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.base });
        await page.goto(`${system.base}/projects/${projectId}/tokens`);
        await page.getByText('No tokens yet.').waitFor();

        await page.getByLabel('Token label').fill('GitHub Actions');
        await page.getByLabel('Permission').selectOption('read_write');
        await page.getByLabel('Token label').press('Enter');
        const field = page.getByLabel('New API token');
        await field.waitFor();
        const token = await field.inputValue();
        expect(token).toMatch(/^tolk_/);
        await page.getByText('shown only this once').waitFor();
        await page.getByRole('button', { name: 'Copy token' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: /Copied|selected/ })
          .waitFor();
        await screenshot(page, 'tokens-created');

        // The list: prefix, permission, never used.
        const row = page.getByRole('row').filter({ hasText: 'GitHub Actions' });
        await row.getByText(`${token.slice(0, 10)}…`).waitFor();
        await row.getByText('read and write').waitFor();
        await row.getByText('never').waitFor();
        // Who created it, by email: removing them from the project revokes it.
        await row.getByText(account.email).waitFor();

        // Once: after Done, and after a reload, the value is nowhere on the page.
        await page.getByRole('button', { name: 'Done' }).click();
        await field.waitFor({ state: 'detached' });
        expect(await page.content()).not.toContain(token);
        await page.reload();
        await row.waitFor();
        expect(await page.content()).not.toContain(token);
        await screenshot(page, 'tokens');

        expect((await api('GET', `/v1/projects/${projectId}`, token)).status).toBe(200);
        await row.getByRole('button', { name: 'Revoke GitHub Actions' }).click();
        await page.getByRole('button', { name: 'Revoke “GitHub Actions” now' }).click();
        await page.getByText('No tokens yet.').waitFor();
        await expect
          .poll(async () => (await api('GET', `/v1/projects/${projectId}`, token)).status, { timeout: 5000 })
          .toBe(401);
      },
    );

    onTheServers(
      'when the CLI sends a signed-out user to /keys?provider=, then after sign-in a key is added and only its hint shows',
      async () => {
        const account = await newAccount();
        const page = await newPage();
        await page.goto(`${system.base}/keys?provider=anthropic`);
        await page.waitForURL(/\/signin\?next=/);
        // Keyboard sign-in: labels, Tab order, Enter submits.
        await page.getByLabel('Email').focus();
        await page.keyboard.type(account.email);
        await page.keyboard.press('Tab');
        expect(await isFocused(page.getByLabel('Password'))).toBe(true);
        await page.keyboard.type(PASSWORD);
        await page.keyboard.press('Enter');
        await heading(page, 'Provider keys');
        expect(new URL(page.url()).search).toBe('?provider=anthropic');

        const item = page.locator('li[data-provider="anthropic"]');
        expect(await item.getAttribute('class')).toContain('highlight');
        const input = page.locator('#key-anthropic');
        await expect.poll(() => isFocused(input)).toBe(true);
        const key = `sk-ant-${randomUUID()}-WXYZ`;
        await page.keyboard.type(key);
        await page.keyboard.press('Enter');
        await item.getByText('Key stored, ending in').waitFor();
        expect(await item.locator('.hint').innerText()).toBe('…WXYZ');
        await item.getByRole('status').filter({ hasText: 'go back to your terminal' }).waitFor();
        expect(await page.content()).not.toContain(key);
        expect(await input.inputValue()).toBe('');
        await screenshot(page, 'keys');

        // What the CLI polls for.
        const reading = await api('GET', '/v1/user/byok/anthropic', account.accessToken);
        expect(reading.body).toEqual({ hasKey: true, apiKey: key });

        // Replace, then remove.
        await page.getByLabel('New Anthropic API key').fill('sk-ant-replaced-9876');
        await item.getByRole('button', { name: 'Replace key for Anthropic' }).click();
        await item.getByText('…9876').waitFor();
        await item.getByRole('button', { name: 'Remove the Anthropic key' }).click();
        await item.getByText('No key stored.').waitFor();
        expect((await api('GET', '/v1/user/byok/anthropic', account.accessToken)).body).toEqual({
          hasKey: false,
          apiKey: '',
        });

        // A key that is too short: the server's message.
        await page.getByLabel('OpenAI API key', { exact: true }).fill('short');
        await page.getByRole('button', { name: 'Save key for OpenAI' }).click();
        const refused = await api('PUT', '/v1/user/byok/openai', account.accessToken, { apiKey: 'short' });
        await page
          .locator('li[data-provider="openai"]')
          .getByRole('alert')
          .filter({ hasText: refused.body.error.message })
          .waitFor();
      },
    );

    it('when a device login started through the API is approved in the browser, then the CLI gets its tokens; a denied one does not', async () => {
      const account = await newAccount();
      const started = await api('POST', '/v1/auth/device');
      expect(started.status).toBe(200);
      const { deviceCode, userCode, verificationUriComplete } = started.body;
      const complete = new URL(verificationUriComplete);
      expect(complete.pathname).toBe('/device');

      // Signed out: sign in first, then back on the device page with its code.
      const page = await newPage();
      await page.goto(`${system.base}${complete.pathname}${complete.search}`);
      await page.waitForURL(/\/signin\?next=/);
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await heading(page, 'Approve a CLI login');
      const shown = await page.locator('.device-code').innerText();
      expect(shown.replace('-', '')).toBe(userCode.replace('-', ''));
      await screenshot(page, 'device');
      expect((await api('POST', '/v1/auth/device/token', undefined, { deviceCode })).body.error.code).toBe(
        'AUTHORIZATION_PENDING',
      );
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('status').filter({ hasText: 'Approved' }).waitFor();
      await screenshot(page, 'device-approved');
      const tokens = await api('POST', '/v1/auth/device/token', undefined, { deviceCode });
      expect(tokens.status).toBe(200);
      expect((await api('GET', '/v1/user/me', tokens.body.accessToken)).body.email).toBe(account.email);

      // Denied, entering the code by hand on /device.
      const other = await api('POST', '/v1/auth/device');
      await page.getByRole('link', { name: 'CLI login' }).click();
      await page.getByLabel('Code shown in your terminal').fill(other.body.userCode.toLowerCase());
      await page.getByLabel('Code shown in your terminal').press('Enter');
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.getByRole('status').filter({ hasText: 'Denied' }).waitFor();
      const denied = await api('POST', '/v1/auth/device/token', undefined, {
        deviceCode: other.body.deviceCode,
      });
      expect(denied.body.error.code).toBe('ACCESS_DENIED');

      // An unknown code: the server's message.
      await page.goto(`${system.base}/device?code=BCDF-GHJK`);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('alert').waitFor();
      expect((await page.getByRole('alert').innerText()).length).toBeGreaterThan(5);
    });

    onTheServers(
      'when two tabs renew the session at once, then the renewals take turns and both stay signed in',
      async () => {
        const account = await newAccount();
        const page = await signedInPage(account);
        await page.goto(`${system.base}/keys`);
        await heading(page, 'Provider keys');
        const before = await storedRefreshToken(page);
        // Two tabs renew at the same time: one rotation each, serialised, and both stay signed in.
        const second = await page.context().newPage();
        await Promise.all([page.goto(`${system.base}/`), second.goto(`${system.base}/keys?provider=openai`)]);
        await heading(page, 'Projects');
        await heading(second, 'Provider keys');
        const after = await storedRefreshToken(page);
        expect(after).not.toBe(before);
        expect((await api('POST', '/v1/auth/refresh', undefined, { refreshToken: after })).status).toBe(200);
      },
    );

    it('when every page has been visited, then no page logged an error (CSP violations included)', () => {
      expect(pageErrors).toEqual([]);
    });
  },
);
