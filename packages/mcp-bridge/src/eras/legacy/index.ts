/**
 * The legacy era (protocol 2025-11-25 and before): pushed questions during one SDK call; a durable
 * call only as a 2025-11-25 task (`tasks/legacyDurable.ts`), never resumed as a retry.
 */
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
  // The SDK's call returns the result itself; only a durable (task-backed) call returns an outcome.
  outcome: (value, job): CallOutcome =>
    job.durable
      ? (value as CallOutcome)
      : { status: 'complete', result: value as Record<string, unknown> },
};
