import type { PGlite } from '@electric-sql/pglite';
import type { Driver } from '../drivers/driver';
import { pgliteDriver as realDriver } from '../drivers/pglite';

/**
 * The real PGlite driver, whose replies to the answering statement can be held back until the
 * asker has read the answer (`holdAnswersUntilRead`): the order a loaded database can produce.
 */
export async function pgliteDriver(
  options: { pglite: PGlite },
  { holdAnswersUntilRead = false } = {},
): Promise<Driver> {
  const driver = await realDriver(options);
  if (!holdAnswersUntilRead) return driver;
  return {
    ...driver,
    async query(text, params = []) {
      const rows = await driver.query(text, params);
      if (!/SET state = \$3::text, answer = \$4::json/.test(text) || rows.length === 0) return rows;
      for (;;) {
        const [row] = await driver.query(
          'SELECT delivered_at IS NOT NULL AS read FROM waitfor_questions WHERE seq = $1::bigint',
          [rows[0]!.seq],
        );
        if (row?.read === true) return rows;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
}
