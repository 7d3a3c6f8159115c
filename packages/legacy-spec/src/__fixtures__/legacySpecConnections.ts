/**
 * Shared by the legacy-spec stdio suites: a starter that spawns a server, connects a client with
 * legacy-spec attached and closes that connection after each test, plus small result helpers.
 */
import type { WaitFor } from '@waitfor/core';
import type { ElicitationMode } from '@waitfor/mcp-bridge';
import { afterEach } from 'vitest';
import { createLegacySpec, type LegacySpecOptions } from '../index';
import {
  openStdio,
  type ClientKind,
  type OpenConnection,
  type ServerCommand,
} from './openConnection';

/**
 * Registers, for the calling file, an afterEach that closes the connection opened last; `start`
 * spawns `server` and connects a `client` with a fresh legacy-spec (built from `options`) attached.
 */
export function legacySpecConnections() {
  let current: OpenConnection | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const start = async (
    client: ClientKind,
    server: ServerCommand,
    waitFor: WaitFor,
    options: LegacySpecOptions = {},
    modes?: ElicitationMode[],
  ) => {
    const legacy = createLegacySpec(options);
    current = await openStdio(client, server, {
      waitFor,
      extensions: [legacy.extension],
      ...(modes === undefined ? {} : { modes }),
    });
    return { legacy, connection: current };
  };
  /** The connection opened last, while its test runs. */
  const currentConnection = () => current;
  return { start, current: currentConnection };
}

/** The text blocks of a tool result, joined with `separator`. */
export const textOf = (result: Record<string, unknown>, separator = '') =>
  (result['content'] as Array<{ text?: string }>).map((block) => block.text ?? '').join(separator);

/** What a promise rejected with (undefined when it resolved). */
export const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );
