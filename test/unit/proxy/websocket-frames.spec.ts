import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { FrameRelay } from '../../../services/proxy/pipeline/frame-relay';
import { FrameCursor, closeFrame } from '../../../services/proxy/pipeline/websocket-frames';

/** A text frame of `size` payload bytes, masked as a client's are when `masked`. */
function frame(size: number, masked: boolean): Buffer {
  const extended = size < 65536 ? [126, size >> 8, size & 0xff] : [127, 0, 0, 0, 0, ...u32(size)];
  const length = size < 126 ? [size] : extended;
  length[0] |= masked ? 0x80 : 0;
  const maskKey = masked ? [1, 2, 3, 4] : [];
  return Buffer.concat([Buffer.from([0x81, ...length, ...maskKey]), Buffer.alloc(size, 0x61)]);
}

function u32(n: number): number[] {
  return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

/** The ends of the frames in `bytes`, as a cursor fed `chunkSize` bytes at a time finds them. */
function boundaries(bytes: Buffer, chunkSize: number): number[] {
  const cursor = new FrameCursor();
  const found: number[] = [];
  let at = 0;
  while (at < bytes.length) {
    const chunk = bytes.subarray(at, Math.min(at + chunkSize, bytes.length));
    // A boundary at the chunk's start was reported already: step over it first.
    const taken = cursor.advance(chunk.subarray(0, 1)) + cursor.advance(chunk.subarray(1), true);
    at += taken;
    if (cursor.atBoundary) found.push(at);
  }
  return found;
}

/** Once what was written to a PassThrough has been read from it. */
const relayed = () => new Promise((resolve) => setImmediate(resolve));

describe('WebSocket frames in a tunnel (proxy)', () => {
  const frames = [frame(0, false), frame(5, true), frame(300, false), frame(70_000, true), frame(125, false)];
  const ends = frames.reduce<number[]>((all, f) => [...all, (all.at(-1) ?? 0) + f.length], []);
  const stream = Buffer.concat(frames);

  for (const chunkSize of [1, 2, 3, 7, 126, 4096, stream.length]) {
    it(`finds where each frame ends, however the bytes are split (${chunkSize} at a time)`, () => {
      assert.deepEqual(boundaries(stream, chunkSize), ends);
    });
  }

  it('writes a close frame with its code and reason, masked for a server', () => {
    const plain = closeFrame(1001, 'Going away', false);
    assert.deepEqual([...plain], [0x88, 12, 0x03, 0xe9, ...Buffer.from('Going away')]);
    const masked = closeFrame(1001, 'Going away', true);
    assert.deepEqual([masked[0], masked[1]], [0x88, 0x80 | 12]);
    const key = masked.subarray(2, 6);
    const payload = masked.subarray(6).map((byte, i) => byte ^ key[i % 4]);
    assert.deepEqual([...payload], [0x03, 0xe9, ...Buffer.from('Going away')]);
  });

  it('ends a direction after the frame under way, with the close frame, and drops what follows', async () => {
    const from = new PassThrough();
    const to = new PassThrough();
    const received: Buffer[] = [];
    to.on('data', (chunk: Buffer) => received.push(chunk));
    const relay = new FrameRelay(from, to);
    const first = frame(300, false);
    from.write(first.subarray(0, 100));
    await relayed();
    relay.close(closeFrame(1001, 'Going away', false));
    from.write(Buffer.concat([first.subarray(100), frame(5, false)]));
    await once(to, 'end');
    assert.deepEqual(Buffer.concat(received), Buffer.concat([first, closeFrame(1001, 'Going away', false)]));
  });

  it('ends a direction at once when it is between frames', async () => {
    const from = new PassThrough();
    const to = new PassThrough();
    const received: Buffer[] = [];
    to.on('data', (chunk: Buffer) => received.push(chunk));
    const relay = new FrameRelay(from, to);
    from.write(frame(5, true));
    await relayed();
    relay.close(closeFrame(1001, 'Going away', true));
    await once(to, 'end');
    assert.equal(Buffer.concat(received).length, frame(5, true).length + 2 + 4 + 12);
  });
});
