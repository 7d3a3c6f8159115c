import { entriesOf, packageBuild } from '../../tsdown.base.ts';
import manifest from './package.json' with { type: 'json' };

// The command (bin) is built beside the library entry; both run on Node (stdio, HTTP, crypto).
export default packageBuild({ entry: [...entriesOf(manifest), 'src/bin.ts'], platform: 'node' });
