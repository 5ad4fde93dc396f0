import type { IncomingMessage, RequestListener } from 'node:http';

type Hold = { match: (req: IncomingMessage) => boolean; count: number; sent: Promise<void> };

/**
 * Holds answers of an HTTP app: each is made as usual and sent only once released — a question
 * whose answer is on its way while a test makes something else happen. `wrap` the app once;
 * `hold` the answers to the requests `match` accepts, from then until `release`.
 */
export function createAnswerGate() {
  let current: Hold | undefined;
  return {
    wrap:
      (app: RequestListener): RequestListener =>
      (req, res) => {
        const hold = current;
        if (hold?.match(req)) {
          const end = res.end.bind(res) as (...args: unknown[]) => void;
          res.end = ((...args: unknown[]) => {
            hold.count++;
            void hold.sent.then(() => end(...args));
            return res;
          }) as typeof res.end;
        }
        app(req, res);
      },

    /** From now on, until `release`: `held` counts the answers made and not sent. */
    hold(match: (req: IncomingMessage) => boolean = () => true) {
      let release = () => {};
      const sent = new Promise<void>((resolve) => (release = resolve));
      const hold: Hold = { match, count: 0, sent };
      current = hold;
      return {
        held: () => hold.count,
        release(): void {
          if (current === hold) current = undefined;
          release();
        },
      };
    },
  };
}
