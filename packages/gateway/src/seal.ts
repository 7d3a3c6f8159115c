/**
 * The gateway's own requestState: `base64url(json).base64url(hmac-sha256)` under a key drawn at
 * random for each gateway, so a state is authenticated (a forged or edited one fails the HMAC) and
 * names the held call it continues. Single use is the held-call table's part: a state whose call
 * was already continued (or expired) names nothing.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isRecord } from '@waitfor/runtime';

/** What a sealed state says: the held call and the round it answers. */
export interface SealedState {
  call: string;
  round: number;
}

/** A state longer than this is refused before any HMAC is computed (ours are ~120 characters). */
export const MAX_STATE_LENGTH = 1024;

/** Seals and opens the states of one gateway. */
export class Sealer {
  readonly #key: Buffer;

  constructor(key: Uint8Array = randomBytes(32)) {
    if (key.byteLength < 32) throw new RangeError('the requestState key needs at least 32 bytes');
    this.#key = Buffer.from(key);
  }

  seal(state: SealedState): string {
    const body = Buffer.from(JSON.stringify({ v: 1, ...state })).toString('base64url');
    return `${body}.${this.#mac(body).toString('base64url')}`;
  }

  /** The state a sealed string names; throws on anything this gateway did not seal. */
  open(sealed: unknown): SealedState {
    if (typeof sealed !== 'string' || sealed.length > MAX_STATE_LENGTH)
      throw new Error('requestState is not a string of at most 1024 characters');
    const dot = sealed.indexOf('.');
    if (dot <= 0) throw new Error('requestState is not sealed by this gateway');
    const body = sealed.slice(0, dot);
    const given = Buffer.from(sealed.slice(dot + 1), 'base64url');
    const expected = this.#mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new Error('requestState failed its authentication');
    const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (
      !isRecord(payload) ||
      payload['v'] !== 1 ||
      typeof payload['call'] !== 'string' ||
      typeof payload['round'] !== 'number'
    )
      throw new Error('requestState has an unknown shape');
    return { call: payload['call'], round: payload['round'] };
  }

  #mac(body: string): Buffer {
    return createHmac('sha256', this.#key).update(body).digest();
  }
}
