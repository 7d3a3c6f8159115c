/**
 * What a modern-era call's options may be: the bridge runs the call's own input_required loop, so
 * a call may bring everything itself (even without an attachment); only a waitFor is needed,
 * unless the call is durable (its questions are handed back in a suspension instead).
 */
import { BridgeError } from '../../bridgeError';
import type { CallSettings } from '../../callOptions';

/** Refuse what this era cannot honour; a modern call's options are its own (none extra to return). */
export function checkCall(settings: CallSettings, _options: unknown, durable: boolean): undefined {
  if (settings.waitFor === undefined && !durable)
    throw new BridgeError('invalid_options', 'No waitFor: attach or pass one');
  return undefined;
}
