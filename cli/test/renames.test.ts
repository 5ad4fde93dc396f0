/**
 * Nothing is paid for twice (DESIGN §13), end to end through the CLI against the real system with
 * the stand-in model recording what it is sent: a renamed key and a restored key cost no model
 * call; a changed description outdates its key, which alone goes to the model again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type System } from '../../test/e2e/system.js';
import { createCliHarness, type CliHarness } from './support/cli-harness.js';
import { startOpenAIStandIn, type ProviderStandIn } from './support/provider-stand-ins.js';

describe('tolk translate after renames, restores and context changes', () => {
  let system: System;
  let cli: CliHarness;
  let openai: ProviderStandIn;
  let token: string;

  beforeAll(async () => {
    [system, openai] = await Promise.all([startSystem({ sources: true, byok: true }), startOpenAIStandIn()]);
    cli = await createCliHarness(system.base);
    token = (await system.signUp()).token;
  });
  afterAll(async () => {
    await cli?.remove();
    await openai?.close();
    await system?.close();
  });

  const tolk = (args: string[]) => cli.tolk(args, { env: { TOLK_TOKEN: token } });
  const translate = () => tolk(['translate', '--base-url', openai.baseURL, '--model', 'stand-in-model']);
  async function push(source: Record<string, unknown>) {
    await cli.writeJson('locales/en.json', source);
    const pushed = await tolk(['push']);
    expect(pushed.code, pushed.stderr).toBe(0);
    return pushed;
  }
  async function translatedUpToDate() {
    const run = await translate();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect((await tolk(['status', '--check'])).code).toBe(0);
    return run;
  }

  it('when a key is renamed, deleted and added back, then neither costs a model call; a changed description sends its key again', async () => {
    const init = await tolk([
      'init',
      '--name',
      'Shop',
      '--targets',
      'de',
      '--files',
      'locales/{locale}.json',
      '--yes',
    ]);
    expect(init.code, init.stderr).toBe(0);
    const button = { description: 'Button that pays the order' };
    await push({ cart: { pay: 'Pay now', '@pay': button }, title: 'Shop', promo: 'Free shipping' });
    await translatedUpToDate();
    expect(openai.stringsReceived()).toEqual([
      { 'cart.pay': 'Pay now', title: 'Shop', promo: 'Free shipping' },
    ]);

    // cart.pay → checkout.pay, same text and description: carried over on the server.
    const renamed = await push({
      checkout: { pay: 'Pay now', '@pay': button },
      title: 'Shop',
      promo: 'Free shipping',
    });
    expect(renamed.stdout).toContain('+ checkout.pay');
    expect(renamed.stdout).toContain('- cart.pay');
    await translatedUpToDate();
    expect(openai.stringsReceived()).toHaveLength(1);
    expect(await cli.readJson('locales/de.json')).toEqual({
      checkout: { pay: '[de] Pay now' },
      title: '[de] Shop',
      promo: '[de] Free shipping',
    });

    // promo deleted by mistake, translated without it, then added back: its translation returns.
    await push({ checkout: { pay: 'Pay now', '@pay': button }, title: 'Shop' });
    await translatedUpToDate();
    await push({ checkout: { pay: 'Pay now', '@pay': button }, title: 'Shop', promo: 'Free shipping' });
    await translatedUpToDate();
    expect(openai.stringsReceived()).toHaveLength(1);
    expect((await cli.readJson('locales/de.json')).promo).toBe('[de] Free shipping');

    // A new description of title: the key is outdated in every target, and only it is sent again.
    await push({
      checkout: { pay: 'Pay now', '@pay': button },
      title: 'Shop',
      '@title': { description: 'The name of the shop, in the header' },
      promo: 'Free shipping',
    });
    const status = await tolk(['status', '--json']);
    expect(status.json()).toMatchObject({ locales: [{ locale: 'de', status: 'behind', outdatedCount: 1 }] });
    await translatedUpToDate();
    expect(openai.stringsReceived().slice(1)).toEqual([{ title: 'Shop' }]);
    expect(JSON.stringify(openai.requests.at(-1)!.body)).toContain('The name of the shop, in the header');
  });
});
