/**
 * The gateway's copy of the upstream's tool schemas (what its HTTP endpoint checks Mcp-Param-*
 * headers against; over real HTTP in httpMcpParam.test.ts): bounded reading of an untrusted list,
 * one fetch for every waiting call, never older than the last host listing, and a failed fetch.
 * The lister here is the endpoint's own seam (a function returning pages), scripted per test.
 */
import { describe, expect, test } from 'vitest';
import {
  declaresHeaders,
  defaultToolSchemaLimits,
  ToolSchemas,
  type ToolLister,
} from './toolSchemas';

const designated = {
  type: 'object',
  properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
};
const plain = { type: 'object', properties: { region: { type: 'string' } } };

/** A schema with its declaration `depth` levels of `properties` down. */
function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'Deep' };
  for (let level = 0; level < depth; level += 1)
    schema = { type: 'object', properties: { inner: schema } };
  return schema;
}

describe('declaresHeaders', () => {
  test('finds an own x-mcp-header anywhere, and none in a schema without one', () => {
    expect(declaresHeaders(designated, defaultToolSchemaLimits)).toBe(true);
    expect(declaresHeaders(nested(10), defaultToolSchemaLimits)).toBe(true);
    expect(declaresHeaders(plain, defaultToolSchemaLimits)).toBe(false);
  });

  test('an inherited x-mcp-header is not the schema’s own', () => {
    const inherited = Object.create({ 'x-mcp-header': 'Region' }) as Record<string, unknown>;
    inherited['type'] = 'string';
    expect(declaresHeaders({ properties: { region: inherited } }, defaultToolSchemaLimits)).toBe(
      false,
    );
  });

  test('past the depth or size bound the schema is not kept (so not checked)', () => {
    const limits = { ...defaultToolSchemaLimits, maxDepth: 8, maxNodes: 100 };
    expect(declaresHeaders(nested(3), limits)).toBe(true);
    expect(declaresHeaders(nested(4), limits)).toBe(false);
    const wide = { ...designated, enum: Array.from({ length: 100 }, (_, index) => index) };
    expect(declaresHeaders(wide, limits)).toBe(false);
  });
});

/** A lister answering from `pages` (by cursor), counting its calls. */
function pagesOf(pages: Record<string, Record<string, unknown>>) {
  const asked: Array<string | undefined> = [];
  const list: ToolLister = async (cursor) => {
    asked.push(cursor);
    return pages[cursor ?? ''] ?? {};
  };
  return { list, asked };
}

/** A lister whose every call waits until the test settles it. */
function heldLister() {
  const pending: Array<{
    resolve(page: Record<string, unknown>): void;
    reject(error: Error): void;
  }> = [];
  const list: ToolLister = () =>
    new Promise((resolve, reject) => pending.push({ resolve, reject }));
  return { list, pending };
}

const page = (...tools: Array<[string, object]>) => ({
  tools: tools.map(([name, inputSchema]) => ({ name, inputSchema })),
});

describe('ToolSchemas', () => {
  test('reads every page, keeps only the tools that declare headers', async () => {
    const { list, asked } = pagesOf({
      '': { ...page(['deploy', designated], ['plain', plain]), nextCursor: 'two' },
      two: page(['scale', nested(2)], ['odd', 'not a schema' as never]),
    });
    const schemas = await new ToolSchemas(list).current();
    expect([...schemas.keys()]).toEqual(['deploy', 'scale']);
    expect(asked).toEqual([undefined, 'two']);
  });

  test('bounded: at most maxPages pages and maxTools tools, a repeated cursor ends the walk', async () => {
    const looping = pagesOf({
      '': { ...page(['a', designated]), nextCursor: 'again' },
      again: { ...page(['b', designated]), nextCursor: 'again' },
    });
    expect([...(await new ToolSchemas(looping.list).current()).keys()]).toEqual(['a', 'b']);
    expect(looping.asked).toEqual([undefined, 'again']);

    let pages = 0;
    const endless: ToolLister = async () => {
      pages += 1;
      return { ...page([`tool${pages}`, designated]), nextCursor: `page${pages}` };
    };
    const limits = { ...defaultToolSchemaLimits, maxPages: 3, maxTools: 2 };
    expect((await new ToolSchemas(endless, limits).current()).size).toBe(2);
    expect(pages).toBe(3);
  });

  test('one fetch serves every waiting call, and none is made again until a host lists', async () => {
    const { list, asked } = pagesOf({ '': page(['deploy', designated]) });
    const schemas = new ToolSchemas(list);
    const [first, second] = await Promise.all([schemas.current(), schemas.current()]);
    expect(first).toBe(second);
    await schemas.current();
    expect(asked).toHaveLength(1);
    schemas.invalidate();
    await schemas.current();
    expect(asked).toHaveLength(2);
  });

  test('a fetch begun before a host listed does not serve a call after it', async () => {
    const { list, pending } = heldLister();
    const schemas = new ToolSchemas(list);
    const early = schemas.current();
    schemas.invalidate();
    const late = schemas.current();
    expect(pending).toHaveLength(2);
    pending[1]!.resolve(page(['renamed', designated]));
    pending[0]!.resolve(page(['old', designated]));
    expect([...(await early).keys()]).toEqual(['old']);
    expect([...(await late).keys()]).toEqual(['renamed']);
    // The older fetch, finishing last, did not replace the newer list.
    expect([...(await schemas.current()).keys()]).toEqual(['renamed']);
  });

  test('a failed fetch: refused with none known, else the last list stands in until one succeeds', async () => {
    const { list, pending } = heldLister();
    const schemas = new ToolSchemas(list);
    const none = schemas.current();
    pending.shift()!.reject(new Error('upstream down'));
    await expect(none).rejects.toThrow('upstream down');

    const known = schemas.current();
    pending.shift()!.resolve(page(['deploy', designated]));
    expect((await known).has('deploy')).toBe(true);

    schemas.invalidate();
    const stale = schemas.current();
    pending.shift()!.reject(new Error('upstream down'));
    expect((await stale).has('deploy')).toBe(true);
    // Not taken as fresh: the next call asks again.
    const retried = schemas.current();
    expect(pending).toHaveLength(1);
    pending.shift()!.resolve(page());
    expect((await retried).size).toBe(0);
  });
});
