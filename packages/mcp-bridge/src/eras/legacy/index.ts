/** The legacy era (protocol 2025-11-25 and before): pushed questions during one SDK call. */
import type { CallOutcome } from '../../types';
import type { Era } from '../era';
import { beginCall, legacyCall } from './call';
import { question } from './handler';
import { checkCall } from './options';

/** The legacy era's jobs. */
export const legacyEra: Era = {
  durable: false,
  question,
  checkCall,
  beginCall,
  call: legacyCall,
  // The SDK's call returns the result itself: a legacy call never suspends.
  outcome: (value): CallOutcome => ({
    status: 'complete',
    result: value as Record<string, unknown>,
  }),
};
