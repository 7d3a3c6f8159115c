// RFC 3339 is stricter than Date.parse, which accepts other shapes and rolls Feb 30 over to March:
// the shape is checked by pattern (T and Z in either case) and the day by a round trip through Date.
const dateTimePattern =
  /^\d{4}-\d\d-\d\dT([01]\d|2[0-3])(:[0-5]\d){2}(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

/** True for an RFC 3339 full-date (`2026-02-28`). */
export const isDate = (value: string): boolean => {
  const time = Date.parse(`${value}T00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
};

/**
 * Epoch milliseconds of an RFC 3339 date-time, or NaN when `value` is not one. A leap second
 * (`:60`) is refused: Date cannot represent it, and no deadline needs one.
 */
export const parseDateTime = (value: string): number =>
  dateTimePattern.test(value) && isDate(value.slice(0, 10)) ? Date.parse(value.toUpperCase()) : NaN;
