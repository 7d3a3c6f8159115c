/**
 * The bridge's source tree reads from the bottom up: its import graph (type imports included) has
 * no cycle, and nothing outside `eras/` reaches into an era's files — only the eras' entry
 * (`eras/index.ts`). Tests, fixtures and the conformance client are not part of the graph.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = dirname(fileURLToPath(import.meta.url));

/** The library's source files, relative to src/ (no tests, no fixtures). */
function sourceFiles(dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === '__fixtures__' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

/** The relative modules `file` imports or re-exports (static, type-only ones too), resolved. */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map(
    (match) => match[1]!,
  );
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => {
      const base = relative(root, resolve(dirname(join(root, file)), specifier));
      const found = [`${base}.ts`, join(base, 'index.ts')].find((path) => known.has(path));
      if (found === undefined) throw new Error(`${file}: cannot resolve ${specifier}`);
      return found;
    });
}

/** The import graph of the library's sources. */
function importGraph(): Map<string, string[]> {
  const files = sourceFiles();
  const known = new Set(files);
  return new Map(files.map((file) => [file, importsOf(file, known)]));
}

/** The strongly connected components of more than one file (or a file importing itself). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

const inEras = (file: string) => file.startsWith(`eras${'/'}`);

describe("the bridge's import graph", () => {
  const graph = importGraph();

  it('reads every source file (the check sees the tree)', () => {
    expect(graph.get('index.ts')).toContain('attachWaitFor.ts');
    expect(graph.size).toBeGreaterThan(20);
  });

  it('has no cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("reaches an era's files only through the eras' entry", () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      inEras(file)
        ? []
        : targets
            .filter((target) => inEras(target) && target !== 'eras/index.ts')
            .map((target) => `${file} → ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('finds a cycle and an arrow into an era when there is one (the check can fail)', () => {
    const broken = new Map(graph);
    broken.set('limits.ts', [...(graph.get('limits.ts') ?? []), 'index.ts']);
    expect(cycles(broken).flat()).toContain('limits.ts');
    expect(cycles(new Map([['a.ts', ['a.ts']]]))).toEqual([['a.ts']]);
  });
});
