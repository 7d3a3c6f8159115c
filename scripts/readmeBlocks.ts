// The code of a README's quick start, cut into files a compiler can check.
//
// Which blocks are checked:
// - the root README: every ```ts / ```tsx block of its `## Quick start` section;
// - a package README: its first ```ts / ```tsx block (its quick start).
// Two markers, each an HTML comment on the line right above a block's fence (GitHub hides them):
// - `<!-- readme-check: continues -->` — the block uses names an earlier block defines: it is
//   appended to the file of the checked block before it (in a package README this also brings a
//   later block into the check).
// - `<!-- readme-check: skip -->` — the block is not checked (say why in the prose around it).

/** One fenced code block of a Markdown file. */
export type CodeBlock = {
  /** The fence's language (`ts`, `tsx`, `sh`…); empty when none is given. */
  language: string;
  /** The code between the fences. */
  code: string;
  /** The `## ` section it sits in (the heading's text), or '' before the first one. */
  section: string;
  /** The marker right above the fence, if any. */
  marker: 'continues' | 'skip' | undefined;
  /** 1-based line of the opening fence, for messages. */
  line: number;
};

/** One file to compile: a checked block, and the blocks marked as continuing it. */
export type CheckedFile = { extension: 'ts' | 'tsx'; code: string; line: number };

const markerPattern = /^<!--\s*readme-check:\s*(continues|skip)\s*-->$/;

/** Every fenced code block of a Markdown text, in order. */
export function codeBlocksOf(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let section = '';
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line.startsWith('## ')) section = line.slice(3).trim();
    const fence = /^(`{3,})([\w-]*)\s*$/.exec(line);
    if (!fence) continue;
    const close = lines.findIndex(
      (candidate, at) => at > index && candidate.trimEnd() === fence[1],
    );
    if (close === -1) throw new Error(`line ${index + 1}: a code block is never closed`);
    const above = /^\s*$/.test(lines[index - 1] ?? '') ? '' : (lines[index - 1] ?? '');
    const marker = markerPattern.exec(above.trim())?.[1] as CodeBlock['marker'];
    blocks.push({
      language: fence[2] ?? '',
      code: lines.slice(index + 1, close).join('\n'),
      section,
      marker,
      line: index + 1,
    });
    index = close;
  }
  return blocks;
}

const isTypeScript = (block: CodeBlock) => block.language === 'ts' || block.language === 'tsx';

/** The checked files of a README: `quickStart` picks the blocks a file starts from. */
function checkedFiles(
  blocks: CodeBlock[],
  quickStart: (block: CodeBlock, index: number) => boolean,
): CheckedFile[] {
  const files: CheckedFile[] = [];
  const typescript = blocks.filter(isTypeScript);
  for (const [index, block] of typescript.entries()) {
    if (block.marker === 'skip') continue;
    const last = files.at(-1);
    if (block.marker === 'continues') {
      if (!last) throw new Error(`line ${block.line}: continues, but no checked block is above it`);
      last.code += `\n${block.code}`;
      if (block.language === 'tsx') last.extension = 'tsx';
    } else if (quickStart(block, index)) {
      files.push({ extension: block.language as 'ts' | 'tsx', code: block.code, line: block.line });
    }
  }
  return files;
}

/** The root README's checked files: every block of its `## Quick start` section. */
export function rootQuickStart(markdown: string): CheckedFile[] {
  return checkedFiles(codeBlocksOf(markdown), (block) => block.section === 'Quick start');
}

/** A package README's checked files: its first TypeScript block, and what continues it. */
export function packageQuickStart(markdown: string): CheckedFile[] {
  return checkedFiles(codeBlocksOf(markdown), (_block, index) => index === 0);
}

/** The package names a piece of code imports (bare specifiers; `node:` and relative ones left out). */
export function importedPackages(code: string): string[] {
  const specifiers = [...code.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s+['"]([^'"]+)['"]/g)]
    .map((match) => match[1] ?? match[2] ?? '')
    .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'));
  const names = specifiers.map((specifier) => {
    const parts = specifier.split('/');
    return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  });
  return [...new Set(names)];
}

/** The packages `npm install` lines of a shell block name (flags left out). */
export function installedPackages(shell: string): string[] {
  return shell
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.startsWith('npm install ') || line.startsWith('npm i '))
    .flatMap((line) => line.split(/\s+/).slice(2))
    .filter((word) => !word.startsWith('-'))
    .map((word) => word.replace(/(?<=.)@[^/]*$/, ''));
}
