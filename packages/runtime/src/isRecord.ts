/**
 * True for an object whose string keys can be read as fields: not null, not an array (an Error
 * counts, so a cause chain can be walked). Works across realms.
 */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
