// Packing (pnpm pack / publish) writes each package.json without the '@waitfor/source' export
// condition: it names ./src files, which the tarball does not hold. The workspace's tests, tsx and
// the shared build resolve sources through it; a user of the published package never needs it.
const sourceCondition = '@waitfor/source';

function withoutSource(target) {
  if (typeof target !== 'object' || target === null) return target;
  return Object.fromEntries(
    Object.entries(target)
      .filter(([condition]) => condition !== sourceCondition)
      .map(([condition, value]) => [condition, withoutSource(value)]),
  );
}

export const hooks = {
  beforePacking(pkg) {
    if (pkg.exports !== undefined) pkg.exports = withoutSource(pkg.exports);
    return pkg;
  },
};
