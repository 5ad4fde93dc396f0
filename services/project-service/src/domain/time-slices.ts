/**
 * How a long loop of one request shares the event loop: `const turn = timeSlices(); for (...) {
 * await turn(); ... }` gives the event loop back once SLICE_MS of work has passed since it last
 * did, so other requests are answered meanwhile and none waits behind the whole loop.
 */
export const SLICE_MS = 10;

export function timeSlices(sliceMs = SLICE_MS): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
}
