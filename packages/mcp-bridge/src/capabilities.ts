import type { WaitFor } from '@waitfor/core';
import { receiverCapabilities } from './tasks/receiver';

/** The elicitation modes a host can serve. */
export type ElicitationMode = 'form' | 'url';

/** What the host can answer; only what is given is declared. */
export interface CapabilityOptions {
  waitFor?: WaitFor | undefined;
  /** Modes the host's UI serves (default both). */
  modes?: readonly ElicitationMode[] | undefined;
  sampling?: unknown;
  roots?: unknown;
  /** The host receives task-augmented elicitation (2025-11-25 tasks): `tasks` is declared. */
  taskElicitation?: unknown;
}

/** The client capabilities object (the part the bridge declares). */
export interface BridgeCapabilities {
  elicitation?: { form?: Record<string, never>; url?: Record<string, never> };
  sampling?: Record<string, never>;
  roots?: Record<string, never>;
  tasks?: ReturnType<typeof receiverCapabilities>['tasks'];
}

/** `taskElicitation: true` or an options object opts in; absent or false does not. */
export const isOptedIn = (value: unknown): boolean =>
  value === true || (typeof value === 'object' && value !== null);

/** The modes among `modes` (default both) the bridge serves, form first. */
export const servedModes = (modes: readonly ElicitationMode[] = ['form', 'url']) =>
  (['form', 'url'] as const).filter((mode) => modes.includes(mode));

/**
 * Honest capabilities for a client's constructor: `elicitation` only when a waitFor exists, naming
 * exactly the modes served (never a bare `{}`, which would mean form only); `sampling`/`roots` only
 * when the host gives a handler.
 */
export function elicitationCapabilities(options: CapabilityOptions): BridgeCapabilities {
  const capabilities: BridgeCapabilities = {};
  const elicitation: NonNullable<BridgeCapabilities['elicitation']> = {};
  if (options.waitFor !== undefined)
    for (const mode of servedModes(options.modes)) elicitation[mode] = {};
  if (elicitation.form || elicitation.url) capabilities.elicitation = elicitation;
  if (options.sampling !== undefined) capabilities.sampling = {};
  if (options.roots !== undefined) capabilities.roots = {};
  // Only with elicitation: a task-augmented question is still asked through waitFor.
  if (capabilities.elicitation && isOptedIn(options.taskElicitation))
    capabilities.tasks = receiverCapabilities().tasks;
  return capabilities;
}
