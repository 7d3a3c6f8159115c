import { packageBuild } from '../../tsdown.base.ts';

// The handler (server), the remote inbox (browser) and the Node adapter are separate entries (see
// package.json exports), so a browser bundle never carries server code.
export default packageBuild();
