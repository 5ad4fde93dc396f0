/**
 * A stand-in model for trying Tolk without a provider key: the OpenAI stand-in of the tests
 * (Chat Completions; it "translates" each string as `[<locale>] <text>`, placeholders intact,
 * each ICU plural with the target's categories, and each i18next plural group with the forms the
 * prompt asks for, `[pl:few] {{count}} items`), on a fixed port: http://127.0.0.1:$PORT/v1
 * (default 8090).
 *
 *   node --import tsx cli/test/support/stand-in-model.ts &
 *   tolk translate --base-url http://127.0.0.1:8090/v1 --model stand-in
 */
import { startForwardingProxy } from './forwarding-proxy.js';
import { startOpenAIStandIn } from './provider-stand-ins.js';

const standIn = await startOpenAIStandIn();
const port = Number(process.env['PORT'] ?? 8090);
const proxy = await startForwardingProxy(standIn.url, { port });
console.log(
  `stand-in model on http://127.0.0.1:${port}/v1 (use --base-url http://127.0.0.1:${port}/v1 --model stand-in)`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void proxy.close();
    void standIn.close().then(() => process.exit(0));
  });
}
