/**
 * Splits a `text/event-stream` into whole events as chunks arrive, so an event can be read (a
 * list answer filtered, an `endpoint` rewritten) before it is passed on; everything else about
 * the stream (ids, comments, retry lines) goes through as the upstream wrote it.
 */
export class SseEventSplitter {
  private pending = '';
  private readonly decoder = new TextDecoder();

  /** The whole events completed by this chunk, each with its terminating blank line. */
  push(chunk: Uint8Array): string[] {
    this.pending += this.decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    const events: string[] = [];
    let end = this.pending.indexOf('\n\n');
    while (end !== -1) {
      events.push(this.pending.slice(0, end + 2));
      this.pending = this.pending.slice(end + 2);
      end = this.pending.indexOf('\n\n');
    }
    return events;
  }

  /** What is left when the stream ends (an unterminated event). */
  rest(): string {
    return this.pending + this.decoder.decode();
  }
}

export interface SseEvent {
  event: string;
  data: string;
  /** the lines other than `event:` and `data:` (id, retry, comments), kept as written */
  others: string[];
}

export function parseSseEvent(text: string): SseEvent {
  const event: SseEvent = { event: 'message', data: '', others: [] };
  const data: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    else if (line.startsWith('event:')) event.event = line.slice(6).trim();
    else event.others.push(line);
  }
  event.data = data.join('\n');
  return event;
}

export function formatSseEvent(event: SseEvent): string {
  const lines = [...event.others];
  if (event.event !== 'message') lines.push(`event: ${event.event}`);
  for (const line of event.data.split('\n')) lines.push(`data: ${line}`);
  return `${lines.join('\n')}\n\n`;
}
