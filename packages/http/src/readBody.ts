/** Why a body could not be read. */
export type BodyFailure = 'too_large' | 'not_utf8';

/**
 * Reads a request body as UTF-8 text, holding at most `maxBytes`: a larger body is cancelled as
 * soon as it passes the limit (never buffered whole), so a client cannot fill the server's memory.
 */
export async function readCapped(
  request: Request,
  maxBytes: number,
): Promise<{ text: string } | { failure: BodyFailure }> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > maxBytes) return { failure: 'too_large' };
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        // Not awaited: a client that stops sending must not hold the refusal back.
        reader.cancel().catch(() => {});
        return { failure: 'too_large' };
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { failure: 'not_utf8' };
  }
}
