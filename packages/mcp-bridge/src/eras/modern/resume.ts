/**
 * How a suspended modern-era call starts again (`resume`): the suspension, read back from storage,
 * is checked as untrusted data, the person's Answers matched to its Requests (an invalid form is
 * refused here, before anything is sent), and the loop of `call.ts` starts with the retry they
 * make. The suspension's host-handled inputRequests (sampling, roots) are answered first, as the
 * loop answers a round: all checked, then concurrently.
 */
import type { AbortSignalLike, Answer } from '@waitfor/core';
import type { CallSettings } from '../../callOptions';
import type { BridgeLimits } from '../../limits';
import type { Suspension } from '../../types';
import type { ResumedCall } from '../era';
import { resolveRound } from '../../inputRound';
import { resumeResponses } from './suspension';

/** Check `suspension` and `answers` within `limits`; the call to run again and where it starts. */
export function resume(
  suspension: unknown,
  answers: readonly Answer[],
  limits: BridgeLimits,
): ResumedCall {
  // Read once: the suspension checked and the Answers matched to its Requests.
  const { suspension: checked, responses } = resumeResponses(suspension, answers, limits);
  return {
    method: checked.method,
    params: checked.params,
    start: async ({ settings, options }) => ({
      params: checked.params,
      round: checked.round,
      retry: {
        responses: { ...responses, ...(await hostResponses(checked, settings, options.signal)) },
        requestState: checked.requestState,
      },
    }),
  };
}

/** The suspension's sampling and roots inputRequests, answered by the host's handlers. */
function hostResponses(suspension: Suspension, settings: CallSettings, signal?: AbortSignalLike) {
  const hostRequests = Object.entries(suspension.inputRequests).filter(
    ([, entry]) => entry.method !== 'elicitation/create',
  );
  return resolveRound(Object.fromEntries(hostRequests), {
    handlers: settings,
    modes: settings.modes,
    maxAttempts: 1,
    origin: { server: settings.serverName, era: 'modern' },
    signal,
  });
}
