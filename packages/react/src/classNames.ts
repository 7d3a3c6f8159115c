/** A part's stable `waitfor-…` class name followed by the host's own `className`, when given. */
export const classNames = (base: string, extra?: string): string =>
  extra ? `${base} ${extra}` : base;
