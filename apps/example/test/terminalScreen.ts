// What a person would see: the terminal's output replayed on a small screen model that knows the
// few sequences the prompt library draws with (cursor moves, erases, colours, cursor show/hide).
// Any other escape sequence or control character is an error, so a server's sequence that reached
// the terminal fails the test instead of being drawn.

/** The rows a terminal shows after the output, scrollback included, and which rows it wrapped. */
export interface Screen {
  rows: string[];
  /** Rows that exist only because a longer row was wrapped by the terminal (they start at column 0). */
  wrapped: number[];
}

/** The library's sequences: CSI with digits, `;` or `?`, ending in one of these final bytes. */
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const librarySequence = /^\u001b\[(\??)([0-9;]*)([ABCDGJKhlm])/;

/** Columns a character takes on a terminal: two for the wide East Asian ranges and emoji. */
function widthOf(character: string): number {
  const code = character.codePointAt(0) ?? 0;
  const wide =
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff);
  return wide ? 2 : 1;
}

/** Replays `output` on a screen `columns` wide that wraps long rows, as a terminal does. */
export function replay(output: string, columns = 80): Screen {
  const rows: string[][] = [[]];
  const wrapped = new Set<number>();
  let row = 0;
  let column = 0;
  const line = () => (rows[row] ??= []);
  const down = (count: number) => {
    row += count;
    while (rows.length <= row) rows.push([]);
  };
  let index = 0;
  while (index < output.length) {
    const rest = output.slice(index);
    if (rest.startsWith('\u001b')) {
      const match = librarySequence.exec(rest);
      if (match === null)
        throw new Error(`Unexpected escape sequence: ${JSON.stringify(rest.slice(0, 12))}`);
      index += match[0].length;
      const [, , parameters = '', final] = match;
      const count = Number(parameters.split(';')[0] || '0');
      if (final === 'A') row = Math.max(0, row - Math.max(1, count));
      else if (final === 'B') down(Math.max(1, count));
      else if (final === 'C') column += Math.max(1, count);
      else if (final === 'D') column = Math.max(0, column - Math.max(1, count));
      else if (final === 'G') column = Math.max(0, count - 1);
      else if (final === 'K') {
        const current = line();
        if (count === 0) current.length = Math.min(current.length, column);
        else if (count === 1) current.fill(' ', 0, column + 1);
        else current.length = 0;
      } else if (final === 'J') {
        line().length = Math.min(line().length, column);
        rows.length = row + 1;
        for (const each of [...wrapped]) if (each > row) wrapped.delete(each);
      }
      continue;
    }
    const character = String.fromCodePoint(rest.codePointAt(0) ?? 0);
    index += character.length;
    if (character === '\n') {
      down(1);
      column = 0;
      continue;
    }
    if (character === '\r') {
      column = 0;
      continue;
    }
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    if (/[\u0000-\u001f\u007f-\u009f]/.test(character))
      throw new Error(
        `Unexpected control character U+${(character.codePointAt(0) ?? 0).toString(16)}`,
      );
    const width = widthOf(character);
    if (column + width > columns) {
      down(1);
      column = 0;
      wrapped.add(row);
    }
    const current = line();
    while (current.length < column) current.push(' ');
    current[column] = character;
    if (width === 2) current[column + 1] = '';
    column += width;
  }
  return { rows: rows.map((each) => each.join('').trimEnd()), wrapped: [...wrapped] };
}

/**
 * The screen's text with the open prompt's frame (`│`, `◆  message`, `│  _`, `└`) folded into its
 * message, so a prompt reads as it did before the library drew frames; '' while no prompt is open.
 */
export function openPrompt(screen: Screen): string {
  const text = screen.rows.join('\n').trimEnd();
  // The last prompt drawn: one withdrawn by an abort keeps its symbol above it.
  const frame = /(^|\n)│\n◆ {2}([^◆]*)\n│ {2}_\n└$/.exec(text);
  if (frame === null) return '';
  return `${text.slice(0, frame.index)}${frame[1]}${frame[2]}`;
}
