// The frame that names the asking server is drawn at column 0; server text must never start a row
// there, or a server could draw a frame naming someone else above its question. Two rules keep
// it so: every line of server text is indented, and no row is left for the terminal to wrap (a
// wrapped row continues at column 0).

/** The narrowest width rows are fitted to, so an indented row always has room. */
const narrowest = 20;

/**
 * Columns a row takes, counted high: one per printable ASCII character, two for any other (wide
 * CJK and emoji take two), so a row fitted by this count never wraps.
 */
export function columnsOf(row: string): number {
  let columns = 0;
  for (const character of row) columns += character >= ' ' && character <= '~' ? 1 : 2;
  return columns;
}

/** Every line of `text` indented by `indent`: server text never starts at column 0. */
export function indentLines(text: string, indent = '  '): string {
  return text
    .split('\n')
    .map((line) => indent + line)
    .join('\n');
}

/**
 * One line broken into rows of at most `width` columns, continued two spaces deeper than the
 * line's own indentation (never at column 0). Breaks at spaces; any other character may end a
 * row, except inside a run of printable ASCII without a space (a URL, a path), which is kept whole
 * to stay copyable — such a run cannot spell a frame, which needs spaces and box-drawing lines.
 */
export function fitRows(line: string, width: number): string[] {
  const limit = Math.max(narrowest, width);
  if (columnsOf(line) <= limit) return [line];
  // A line's own indentation is kept up to half the width (more is only blank), and continued
  // rows go two spaces deeper, so every row has room for text.
  const half = Math.floor(limit / 2);
  const spaces = /^ */.exec(line)?.[0].length ?? 0;
  const lead = ' '.repeat(Math.min(spaces, half));
  const indent = ' '.repeat(Math.min(spaces + 2, half));
  const rows: string[] = [];
  let row = lead;
  let fresh = true;
  const breakRow = () => {
    rows.push(row.trimEnd());
    row = indent;
    fresh = true;
  };
  for (const token of line.slice(spaces).match(/[!-~]+| +|[^]/gu) ?? []) {
    const fits = columnsOf(row) + columnsOf(token) <= limit;
    if (token.startsWith(' ')) {
      // Spaces that do not fit end the row; a continued row does not start with them.
      if (!fresh && fits) row += token;
      else if (!fresh) breakRow();
      continue;
    }
    if (!fits && !fresh) breakRow();
    row += token;
    fresh = false;
  }
  rows.push(row);
  return rows;
}

/** Every line of `text` fitted to `width` (see fitRows), joined again with line breaks. */
export function fitText(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => fitRows(line, width))
    .join('\n');
}
