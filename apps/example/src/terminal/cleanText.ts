// Whole escape sequences go first, so no parameter bytes ("[31m") are left behind: CSI (ESC [ or
// C1 0x9b) up to its final byte; OSC, DCS, SOS, PM and APC strings (ESC ] P X ^ _ or C1 0x9d 0x90
// 0x98 0x9e 0x9f) up to BEL or ST, or to the end of the text when unterminated — an OSC 8
// hyperlink could otherwise show one address and open another; any other ESC with its
// intermediate and final bytes.
const escapeSequences =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;

// Every C0 control, DEL and C1 control (the line feed too, unless lines are kept), plus the bidi
// overrides and isolates that can make a line read in another order than it is written.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controls = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controlsButNewline = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A server's text made safe for a terminal: ANSI escape sequences, C0/C1 control characters and
 * bidi overrides are removed, so it cannot move the cursor, recolour, erase or relink what the
 * terminal shows. Tabs and line breaks become spaces; with `lines`, line breaks (CR, LF, CRLF) are
 * kept as LF, for multi-line text such as a prompt.
 */
export function cleanText(text: string, lines = false): string {
  const plain = String(text).replace(escapeSequences, '');
  const spaced = lines
    ? plain.replace(/\r\n?/g, '\n').replace(/[\t\v\f]/g, ' ')
    : plain.replace(/\r\n|[\t\n\v\f\r]/g, ' ');
  return spaced.replace(lines ? controlsButNewline : controls, '');
}
