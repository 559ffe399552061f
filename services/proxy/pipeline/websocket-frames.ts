import { randomBytes } from 'node:crypto';

/**
 * Follows the frames of one direction of a WebSocket connection (RFC 6455 §5.2) by their
 * headers alone, so that a relay can cut the byte stream between two frames and put a frame of
 * its own there. Payloads are counted, never read.
 */
export class FrameCursor {
  /** payload bytes of the current frame still to come */
  private payloadLeft = 0;
  /** the bytes of a frame header read so far: a header may arrive split across chunks */
  private head: number[] = [];

  /** Whether the bytes so far end exactly where a frame ends. */
  get atBoundary(): boolean {
    return this.payloadLeft === 0 && this.head.length === 0;
  }

  /**
   * Follows `chunk` and returns how many of its bytes it took: all of them, or with `stopAtBoundary`
   * those up to the first point where a frame ends (0 when the bytes before it ended one).
   */
  advance(chunk: Buffer, stopAtBoundary = false): number {
    let at = 0;
    while (at < chunk.length) {
      if (stopAtBoundary && this.atBoundary) return at;
      if (this.payloadLeft > 0) {
        const take = Math.min(this.payloadLeft, chunk.length - at);
        this.payloadLeft -= take;
        at += take;
        continue;
      }
      this.head.push(chunk[at++]);
      if (this.head.length === headerSize(this.head)) {
        this.payloadLeft = payloadLength(this.head);
        this.head = [];
      }
    }
    return at;
  }
}

/** The length of a frame header, once its first two bytes are known (0 before). */
function headerSize(head: number[]): number {
  if (head.length < 2) return 0;
  const length7 = head[1] & 0x7f;
  const extended = length7 === 126 ? 2 : length7 === 127 ? 8 : 0;
  const maskKey = head[1] & 0x80 ? 4 : 0;
  return 2 + extended + maskKey;
}

function payloadLength(head: number[]): number {
  const length7 = head[1] & 0x7f;
  if (length7 === 126) return (head[2] << 8) | head[3];
  if (length7 === 127) return head.slice(2, 10).reduce((length, byte) => length * 256 + byte, 0);
  return length7;
}

/**
 * A close frame with `code` and a short `reason`. A client's frames are masked (RFC 6455 §5.3):
 * `masked` for one sent to a server.
 */
export function closeFrame(code: number, reason: string, masked: boolean): Buffer {
  // A control frame's payload is at most 125 bytes: the code and 123 of the reason.
  const payload = Buffer.concat([Buffer.from([code >> 8, code & 0xff]), Buffer.from(reason).subarray(0, 123)]);
  const head = Buffer.from([0x88, (masked ? 0x80 : 0) | payload.length]);
  if (!masked) return Buffer.concat([head, payload]);
  const mask = randomBytes(4);
  for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i % 4];
  return Buffer.concat([head, mask, payload]);
}
