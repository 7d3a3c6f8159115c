/**
 * What a legacy-era call's options may be. Pushed questions reach only the handlers attachWaitFor
 * registered, under the capabilities it declared: what a call brings beyond that cannot be
 * honoured, so it is refused before anything is sent. A call's own waitFor, modes, maxAttempts or
 * limits apply to its questions only while it runs alone (`questionLinks.ts`).
 */
import { BridgeError } from '../../bridgeError';
import type { CallOptions, CallSettings } from '../../callOptions';
import type { QuestionOptions } from '../../questionLinks';

/** Refuse what this era cannot honour; returns the call's own question options, if it brings some. */
export function checkCall(
  settings: CallSettings,
  options: CallOptions,
): QuestionOptions | undefined {
  const bridge = settings.bridge;
  if (!bridge) throw new BridgeError('invalid_options', 'Legacy era: attachWaitFor(client) first');
  const differs = (key: 'waitFor' | 'sampling' | 'roots' | 'maxAttempts') =>
    options[key] !== undefined && options[key] !== bridge.settings[key];
  if (differs('sampling') || differs('roots'))
    throw new BridgeError('invalid_options', 'Legacy era: sampling, roots go to attachWaitFor');
  if (!differs('waitFor') && !differs('maxAttempts') && !options.modes && !options.limits)
    return undefined;
  // The resolved settings carry the call's own options, else the attachment's.
  const { modes, maxAttempts, limits } = settings;
  return { waitFor: settings.waitFor ?? bridge.settings.waitFor, modes, maxAttempts, limits };
}
