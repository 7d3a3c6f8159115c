/** Holds the data-directory lock of argv[2] until killed; says `held` once it does. */
import { mkdir } from 'node:fs/promises';
import { lockDir } from '../page/dataLock';

const dir = process.argv[2] as string;
await mkdir(dir, { recursive: true });
const lock = await lockDir(dir);
if (lock === undefined) process.exit(1);
process.stdout.write('held\n');
// Keep the process alive: the lock's socket is unref'd, so it would not.
setInterval(() => undefined, 1 << 30);
