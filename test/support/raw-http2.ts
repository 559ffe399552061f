import { connect, type TLSSocket } from 'node:tls';

/** HTTP/2 frame types and flags (RFC 9113 §6) a test writes or reads by hand. */
export const FrameType = { DATA: 0x0, HEADERS: 0x1, RST_STREAM: 0x3, SETTINGS: 0x4, GOAWAY: 0x7, CONTINUATION: 0x9 };
export const Flags = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4 };
export const ErrorCode = { REFUSED_STREAM: 0x7, ENHANCE_YOUR_CALM: 0xb };

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export interface Frame {
  type: number;
  flags: number;
  streamId: number;
  payload: Buffer;
}

/** A frame: its 9-byte header (length, type, flags, stream id), then its payload. */
export function frame(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

/** One header field as HPACK's "literal without indexing, new name" (no Huffman; lengths below 127). */
export function literalField(name: string, value: string): Buffer {
  const length = (n: number) => (n < 127 ? Buffer.from([n]) : Buffer.from([127, ...prefixRest(n - 127)]));
  return Buffer.concat([
    Buffer.from([0]),
    length(name.length),
    Buffer.from(name),
    length(value.length),
    Buffer.from(value),
  ]);
}

/** HPACK integer continuation bytes (RFC 7541 §5.1) */
function prefixRest(n: number): number[] {
  const out: number[] = [];
  while (n >= 128) {
    out.push((n % 128) + 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** The header block of a request: its pseudo-headers, then `extra` fields. */
export function requestBlock(authority: string, path: string, method = 'GET', extra: Buffer[] = []): Buffer {
  return Buffer.concat([
    literalField(':method', method),
    literalField(':scheme', 'https'),
    literalField(':authority', authority),
    literalField(':path', path),
    ...extra,
  ]);
}

/**
 * An HTTP/2 connection over TLS (ALPN h2) written frame by frame: what a misbehaving client
 * sends, with every frame the server answers parsed.
 */
export class RawHttp2Connection {
  readonly socket: TLSSocket;
  readonly frames: Frame[] = [];
  closed = false;
  readonly gone: Promise<void>;
  private pending = Buffer.alloc(0);

  private constructor(socket: TLSSocket) {
    this.socket = socket;
    this.gone = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      this.pending = Buffer.concat([this.pending, chunk]);
      while (this.pending.length >= 9) {
        const length = this.pending.readUIntBE(0, 3);
        if (this.pending.length < 9 + length) break;
        const received = {
          type: this.pending[3],
          flags: this.pending[4],
          streamId: this.pending.readUInt32BE(5) & 0x7fffffff,
          payload: this.pending.subarray(9, 9 + length),
        };
        this.frames.push(received);
        if (received.type === FrameType.SETTINGS && !(received.flags & Flags.ACK))
          this.write(frame(FrameType.SETTINGS, Flags.ACK, 0));
        this.pending = this.pending.subarray(9 + length);
      }
    });
  }

  /** Connects and sends the preface and empty SETTINGS (the server's are acknowledged as they come). */
  static async open(port: number, ca: string): Promise<RawHttp2Connection> {
    const socket = connect({ host: '127.0.0.1', port, ca, ALPNProtocols: ['h2'], servername: 'localhost' });
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    if (socket.alpnProtocol !== 'h2') throw new Error(`ALPN chose ${String(socket.alpnProtocol)}, not h2`);
    const connection = new RawHttp2Connection(socket);
    connection.write(Buffer.concat([PREFACE, frame(FrameType.SETTINGS, 0, 0)]));
    return connection;
  }

  /** false once the socket can not take it (closed) */
  write(bytes: Buffer): boolean {
    if (this.closed || this.socket.destroyed) return false;
    this.socket.write(bytes);
    return true;
  }

  /** the server's frames of one type */
  received(type: number): Frame[] {
    return this.frames.filter((f) => f.type === type);
  }

  /** the error code of the server's GOAWAY, if it sent one */
  get goAwayCode(): number | undefined {
    const goAway = this.received(FrameType.GOAWAY)[0];
    return goAway ? goAway.payload.readUInt32BE(4) : undefined;
  }

  destroy(): void {
    this.socket.destroy();
  }
}
