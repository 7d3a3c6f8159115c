// What a package offers a user, read three ways: its sources, its built type declarations and its
// built JavaScript as Node loads it. The built-package tests compare the three.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';

/** A package.json as far as these checks read it. */
export type Manifest = {
  name: string;
  private?: boolean;
  exports?: Record<string, string | { types?: string; default?: string }>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** One entry of an `exports` map: the subpath a user imports and the files it points at. */
export type Entry = { subpath: string; specifier: string; types: string; code: string };

/** One exported name and whether it exists at runtime (a value) or only for the type checker. */
export type ExportedName = { name: string; value: boolean };

/** Reads a package.json. */
export function readManifest(packageDirectory: string): Manifest {
  return JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as Manifest;
}

/** Every importable entry of a package's `exports` map (./package.json is data, not code). */
export function entriesOf(manifest: Manifest): Entry[] {
  return Object.entries(manifest.exports ?? {})
    .filter(([subpath]) => subpath !== './package.json')
    .map(([subpath, target]) => {
      if (typeof target === 'string' || !target.types || !target.default)
        throw new Error(`${manifest.name} exports ${subpath} without both types and default`);
      return {
        subpath,
        specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
        types: target.types,
        code: target.default,
      };
    });
}

/**
 * The source file a built file comes from: tsdown writes src/<name>.ts(x) to dist/<name>.mjs.
 * Returns undefined when no such source exists.
 */
export function sourceOf(packageDirectory: string, builtFile: string): string | undefined {
  const stem = builtFile.replace(/^\.\/dist\//, 'src/').replace(/\.d\.mts$|\.mjs$/, '');
  return ['.ts', '.tsx']
    .map((extension) => join(packageDirectory, `${stem}${extension}`))
    .find((file) => existsSync(file));
}

/** The compiler options of a package's own tsconfig.json, so its sources resolve as they build. */
function compilerOptionsOf(packageDirectory: string): ts.CompilerOptions {
  const configFile = join(packageDirectory, 'tsconfig.json');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, packageDirectory).options;
}

/**
 * The names a module exports, sorted, each marked value or type-only. A name is a value only when
 * no link of its re-export chain is type-only and what it finally names exists at runtime — the
 * same rule TypeScript applies when a user imports it.
 */
export function exportedNames(
  packageDirectory: string,
  files: readonly string[],
): Map<string, ExportedName[]> {
  const program = ts.createProgram(files, { ...compilerOptionsOf(packageDirectory), noEmit: true });
  const checker = program.getTypeChecker();
  const result = new Map<string, ExportedName[]>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`TypeScript cannot read ${file} as a module`);
    const names = checker.getExportsOfModule(moduleSymbol).map((symbol) => ({
      name: symbol.name,
      value: isValue(checker, symbol),
    }));
    result.set(
      file,
      names.sort((left, right) => left.name.localeCompare(right.name)),
    );
  }
  return result;
}

function isValue(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  let current: ts.Symbol | undefined = symbol;
  // Each step is one import or re-export; a `type` modifier anywhere makes the name type-only.
  while (current && current.flags & ts.SymbolFlags.Alias) {
    if ((current.declarations ?? []).some(ts.isTypeOnlyImportOrExportDeclaration)) return false;
    current = checker.getImmediateAliasedSymbol(current);
  }
  if (!current || current.flags & ts.SymbolFlags.Alias)
    throw new Error(`cannot resolve the export ${symbol.name}`);
  return (current.flags & ts.SymbolFlags.Value) !== 0;
}

/** Every module specifier a built file imports or re-exports, dynamic import() included. */
export function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.map((imported) => imported.fileName);
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); undefined for relative or builtin. */
export function packageNameOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier))
    return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Every built file (.mjs and .d.mts) under a dist folder. */
export function builtFiles(distDirectory: string): string[] {
  return readdirSync(distDirectory, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.mjs') || file.endsWith('.d.mts'))
    .map((file) => join(distDirectory, file))
    .sort();
}

/** Whether a file's first statement is the directive `'use client'` (comments may precede it). */
export function startsWithUseClient(file: string): boolean {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const [first] = source.statements;
  return (
    first !== undefined &&
    ts.isExpressionStatement(first) &&
    ts.isStringLiteral(first.expression) &&
    first.expression.text === 'use client'
  );
}

/** What one entry gave plain Node: its export names, or the error its import threw. */
export type Loaded = { names: string[] } | { error: string };

// Runs in a child `node`: imports each specifier as a user's module would and reports its names.
const probe = `
const results = {};
for (const specifier of JSON.parse(process.argv[2])) {
  try {
    results[specifier] = { names: Object.keys(await import(specifier)).sort() };
  } catch (error) {
    results[specifier] = { error: String(error?.stack ?? error) };
  }
}
process.stdout.write(JSON.stringify(results));
`;

/**
 * Imports `specifiers` in a fresh plain-Node process whose working directory is `directory`, so
 * bare names resolve through that directory's node_modules, as they do in a user's project.
 */
export function loadInNode(
  directory: string,
  specifiers: readonly string[],
): Promise<Record<string, Loaded>> {
  const probeFile = join(directory, 'probe.mjs');
  writeFileSync(probeFile, probe);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [probeFile, JSON.stringify(specifiers)],
      // A hang (an import that never settles) ends at this deadline instead of stalling the suite.
      { cwd: dirname(probeFile), timeout: 30_000, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`node failed to import ${specifiers.join(', ')}: ${stderr}`));
        else resolve(JSON.parse(stdout) as Record<string, Loaded>);
      },
    );
  });
}
