import { packageBuild } from '../../tsdown.base.ts';

// unbundle keeps one output file per source file: bundling would drop the 'use client' directive
// that the hook and component files carry for React Server Components frameworks.
export default packageBuild({ unbundle: true });
