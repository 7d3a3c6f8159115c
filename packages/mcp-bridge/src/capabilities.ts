import type { WaitFor } from '@waitfor/core';

/** The elicitation modes a host can serve. */
export type ElicitationMode = 'form' | 'url';

/** What the host can answer; only what is given is declared. */
export interface CapabilityOptions {
  waitFor?: WaitFor | undefined;
  /** Modes the host's UI serves (default both). */
  modes?: readonly ElicitationMode[] | undefined;
  sampling?: unknown;
  roots?: unknown;
}

/** The client capabilities object (the part the bridge declares). */
export interface BridgeCapabilities {
  elicitation?: { form?: Record<string, never>; url?: Record<string, never> };
  sampling?: Record<string, never>;
  roots?: Record<string, never>;
}

/**
 * Honest capabilities for a client's constructor: `elicitation` only when a waitFor exists, naming
 * exactly the modes served (never a bare `{}`, which would mean form only); `sampling`/`roots` only
 * when the host gives a handler.
 */
export function elicitationCapabilities(options: CapabilityOptions): BridgeCapabilities {
  const capabilities: BridgeCapabilities = {};
  if (options.waitFor !== undefined) {
    const modes = options.modes ?? ['form', 'url'];
    const elicitation: NonNullable<BridgeCapabilities['elicitation']> = {};
    if (modes.includes('form')) elicitation.form = {};
    if (modes.includes('url')) elicitation.url = {};
    if (elicitation.form !== undefined || elicitation.url !== undefined)
      capabilities.elicitation = elicitation;
  }
  if (options.sampling !== undefined) capabilities.sampling = {};
  if (options.roots !== undefined) capabilities.roots = {};
  return capabilities;
}

/** The modes a capabilities object declares (a bare `{}` is form only, as the spec says). */
export function declaredModes(capabilities: BridgeCapabilities | undefined): ElicitationMode[] {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (elicitation === undefined) return [];
  const modes: ElicitationMode[] = [];
  if (elicitation['form'] !== undefined || elicitation['url'] === undefined) modes.push('form');
  if (elicitation['url'] !== undefined) modes.push('url');
  return modes;
}
