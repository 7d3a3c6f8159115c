/**
 * The string formats a form checks before an answer is sent. A server validates the answer again
 * (ajv-formats in full mode, or zod 4), and refuses the whole tool call when it disagrees, so the
 * person's answer is lost: each check here accepts only what both accept (tested as a property
 * against both), and is stricter where they differ.
 */
// Only URL's constructor is used, and core compiles without DOM or Node types.
declare const URL: new (url: string) => unknown;

// The local part zod accepts (dot-separated runs of letters, digits and _'+-, no ' last), which
// ajv accepts too; a domain of labels that neither start nor end with "-" and a top-level label of
// two letters or more (ajv refuses "-x", "x-" and "_"; zod a numeric top-level label).
const emailPattern =
  /^(?:[\w'+-]+\.)*[\w'+-]*[\w+-]@(?:[a-z\d](?:[a-z\d-]*[a-z\d])?\.)+[a-z]{2,}$/i;

// RFC 3986 `URI` (absolute, with an optional query and fragment) with a hier-part that is not empty.
// Every character class is disjoint from the delimiter after it, so a match takes linear time.
const unit = "(?:[\\w.~!$&'()*+,;=-]|%[\\da-f]{2})";
const pathCharacter = `(?:${unit}|[:@])`;
const segments = `(?:\\/${pathCharacter}*)*`;
const uriPattern = new RegExp(
  '^[a-z][a-z\\d+.-]*:' +
    // "//" authority: user info, a host (a name, an IPv4 address or a bracketed IPv6 one), a port.
    `(?:\\/\\/(?:(?:${unit}|:)*@)?(?:${unit}*|\\[[\\da-f:.]+\\])(?::\\d*)?${segments}` +
    // or a path that does not start with "//".
    `|\\/?${pathCharacter}+${segments}|\\/)` +
    `(?:\\?(?:${pathCharacter}|[/?])*)?(?:#(?:${pathCharacter}|[/?])*)?$`,
  'i',
);

/** True when the WHATWG URL parser (what zod's url check and browsers use) takes `value`. */
function parsesAsUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

// RFC 3339 date-time as zod's iso.datetime({ offset: true }) reads it: upper-case T and Z, seconds
// required, no leap second (ajv takes one only at 23:59:60 UTC, zod never), offsets up to ±23:59.
const dateTimePattern =
  /^\d{4}-\d\d-\d\dT([01]\d|2[0-3])(:[0-5]\d){2}(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

// RFC 3339 full-date, four-digit year (Date.parse would also take "-000300-02" or "+002026-…").
const datePattern = /^(\d{4})-(\d\d)-(\d\d)$/;

/** True for a real day of the Gregorian calendar written as YYYY-MM-DD. */
function isDate(value: string): boolean {
  const parts = datePattern.exec(value);
  if (parts === null) return false;
  const year = Number(parts[1]);
  const month = Number(parts[2]);
  const day = Number(parts[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  // 31 days in the odd months up to July and the even ones from August on.
  const days = month === 2 ? (leap ? 29 : 28) : 30 + ((month + (month >> 3)) & 1);
  return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

/** A format check and the message shown when a value fails it, by format name. */
export const formats: Record<string, [(value: string) => boolean, string]> = {
  email: [(value) => emailPattern.test(value), 'Enter an email address.'],
  uri: [
    (value) => uriPattern.test(value) && parsesAsUrl(value),
    'Enter a URI such as https://example.com.',
  ],
  date: [isDate, 'Enter a date as YYYY-MM-DD.'],
  'date-time': [
    (value) => dateTimePattern.test(value) && isDate(value.slice(0, 10)),
    'Enter a date and time such as 2026-01-31T09:00:00Z.',
  ],
};
