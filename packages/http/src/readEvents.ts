/** One Server-Sent Event: its type (default `message`), its data and the stream's last event id. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id: string | undefined;
}

/**
 * Reads Server-Sent Events from a fetch body (fetch, unlike EventSource, can send headers). An event
 * longer than `maxEventChars` ends the stream with an error: a server must not fill the page's memory.
 */
export async function* readEvents(
  body: ReadableStream<Uint8Array>,
  maxEventChars: number,
  onBytes: () => void = () => {},
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let dataChars = 0;
  let id: string | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      // Any bytes, a heartbeat comment included, show the connection is alive.
      onBytes();
      buffer += decoder.decode(value, { stream: true });
      // CRLF, LF or CR end a line; a CR at the end may be half of a CRLF, so it waits for more.
      let start = 0;
      for (let index = 0; index < buffer.length; index++) {
        const char = buffer[index];
        if (char !== '\n' && char !== '\r') continue;
        if (char === '\r' && index === buffer.length - 1) break;
        const line = buffer.slice(start, index);
        if (char === '\r' && buffer[index + 1] === '\n') index++;
        start = index + 1;
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), id };
          event = '';
          data = [];
          dataChars = 0;
          continue;
        }
        const colon = line.indexOf(':');
        if (colon === 0) continue; // a comment: a heartbeat
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event = value;
        else if (field === 'data') {
          data.push(value);
          dataChars += value.length;
        } else if (field === 'id' && !value.includes('\0')) id = value;
      }
      buffer = buffer.slice(start);
      if (buffer.length + dataChars > maxEventChars)
        throw new Error(`An event is over ${maxEventChars} characters.`);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
