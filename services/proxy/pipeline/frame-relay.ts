import type { Duplex } from 'node:stream';
import { FrameCursor } from './websocket-frames';

/**
 * One direction of a WebSocket tunnel: bytes go on as they come, with their frames followed,
 * so that `close` can end the direction between two frames with a frame of the gateway's own.
 */
export class FrameRelay {
  private readonly cursor = new FrameCursor();
  /** the frame that ends this direction, once asked for */
  private last: Buffer | undefined;
  private ended = false;

  constructor(
    private readonly from: Duplex,
    private readonly to: Duplex,
  ) {
    from.on('data', (chunk: Buffer) => this.forward(chunk));
    to.on('drain', () => from.resume());
  }

  /** Relays `chunk` (also the bytes read past the upgrade's headers, before the relay began). */
  forward(chunk: Buffer): void {
    // Past the last frame: what still comes (the peer's answer to it) is dropped.
    if (this.ended) return;
    const taken = this.cursor.advance(chunk, this.last !== undefined);
    const bytes = taken === chunk.length ? chunk : chunk.subarray(0, taken);
    if (bytes.length > 0 && !this.to.write(bytes)) this.from.pause();
    if (this.last && this.cursor.atBoundary) this.end();
  }

  /** Ends this direction with `frame`, at the next frame boundary (at once when between frames). */
  close(frame: Buffer): void {
    if (this.last || this.ended) return;
    this.last = frame;
    if (this.cursor.atBoundary) this.end();
  }

  private end(): void {
    this.ended = true;
    this.to.end(this.last);
    this.from.resume();
  }
}
