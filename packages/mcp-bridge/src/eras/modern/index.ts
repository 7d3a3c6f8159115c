/** The modern era (protocol 2026-07-28): input_required rounds the bridge drives itself. */
import type { CallOutcome } from '../../types';
import type { Era } from '../era';
import { call } from './call';
import { question } from './handler';
import { checkCall } from './options';
import { resume } from './resume';

/** The modern era's jobs. */
export const modernEra: Era = {
  durable: true,
  question,
  checkCall,
  call,
  outcome: (value) => value as CallOutcome,
  resume,
};
