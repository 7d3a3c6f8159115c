/** A real AbortController whose signal counts the abort listeners added to it and still held. */
export function countedController() {
  const controller = new AbortController();
  const { signal } = controller;
  let added = 0;
  let held = 0;
  let most = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((type: string, listener: () => void, options?: object) => {
    added += 1;
    held += 1;
    most = Math.max(most, held);
    add(type, listener, options);
  }) as never;
  signal.removeEventListener = ((type: string, listener: () => void) => {
    held -= 1;
    remove(type, listener);
  }) as never;
  return { controller, added: () => added, held: () => held, most: () => most };
}
