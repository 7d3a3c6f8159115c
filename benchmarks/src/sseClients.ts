/**
 * Child process of the http-inbox benchmark: opens `count` event streams to `url` (as a signed-in
 * page would) and prints "ready" once every one has its first event, so the clients' own memory
 * stays out of the server's figure. Runs until its parent kills it.
 */
const [url, countText, token] = process.argv.slice(2);
const count = Number(countText);
let ready = 0;
const open = async (): Promise<void> => {
  const response = await fetch(url!, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`stream refused: ${response.status}`);
  const reader = response.body!.getReader();
  let first = true;
  for (;;) {
    const { done } = await reader.read();
    if (done) return;
    if (first && ++ready === count) process.stdout.write('ready\n');
    first = false;
  }
};
for (let index = 0; index < count; index++)
  open().catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
