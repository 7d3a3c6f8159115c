/**
 * The eras' entry, the one file of `eras/` the rest of the bridge imports: the eras side by side,
 * a connection's chosen once, by the era its client negotiated.
 */
import type { ProtocolEra } from '../protocol';
import type { Era } from './era';
import { legacyEra } from './legacy';
import { modernEra } from './modern';

export type { CallJob, Era, LoopStart } from './era';
export { parseSuspension } from './parse';

const eras: Record<ProtocolEra, Era> = { legacy: legacyEra, modern: modernEra };

/** The era object of a negotiated era (a client not connected yet counts as legacy). */
export const eraFor = (era: ProtocolEra | undefined): Era => eras[era ?? 'legacy'];
