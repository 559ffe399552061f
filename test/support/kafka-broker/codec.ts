/** Reading and writing the Kafka protocol's primitive types (non-flexible versions only). */

export class Reader {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}

  int8(): number {
    return this.buf.readInt8(this.take(1));
  }
  int16(): number {
    return this.buf.readInt16BE(this.take(2));
  }
  int32(): number {
    return this.buf.readInt32BE(this.take(4));
  }
  int64(): bigint {
    return this.buf.readBigInt64BE(this.take(8));
  }
  /** a nullable string (length -1 is null) */
  string(): string | null {
    const length = this.int16();
    if (length < 0) return null;
    const start = this.take(length);
    return this.buf.toString('utf8', start, start + length);
  }
  bytes(): Buffer | null {
    const length = this.int32();
    if (length < 0) return null;
    const start = this.take(length);
    return this.buf.subarray(start, start + length);
  }
  /** a nullable array: null for length -1 */
  array<T>(item: (reader: Reader) => T): T[] | null {
    const length = this.int32();
    if (length < 0) return null;
    const out: T[] = [];
    for (let i = 0; i < length; i++) out.push(item(this));
    return out;
  }
  rest(): Buffer {
    return this.buf.subarray(this.pos);
  }

  private take(n: number): number {
    if (this.pos + n > this.buf.length) throw new RangeError('request truncated');
    const at = this.pos;
    this.pos += n;
    return at;
  }
}

export class Writer {
  private readonly parts: Buffer[] = [];

  int8(v: number): this {
    return this.push(1, (b) => b.writeInt8(v));
  }
  int16(v: number): this {
    return this.push(2, (b) => b.writeInt16BE(v));
  }
  int32(v: number): this {
    return this.push(4, (b) => b.writeInt32BE(v));
  }
  int64(v: bigint | number): this {
    return this.push(8, (b) => b.writeBigInt64BE(BigInt(v)));
  }
  bool(v: boolean): this {
    return this.int8(v ? 1 : 0);
  }
  string(v: string | null): this {
    if (v === null) return this.int16(-1);
    const bytes = Buffer.from(v, 'utf8');
    this.int16(bytes.length);
    this.parts.push(bytes);
    return this;
  }
  bytes(v: Buffer | null): this {
    if (v === null) return this.int32(-1);
    this.int32(v.length);
    this.parts.push(v);
    return this;
  }
  array<T>(items: readonly T[] | null, write: (writer: this, item: T) => void): this {
    if (items === null) return this.int32(-1);
    this.int32(items.length);
    for (const item of items) write(this, item);
    return this;
  }
  raw(v: Buffer): this {
    this.parts.push(v);
    return this;
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }

  private push(size: number, write: (b: Buffer) => void): this {
    const b = Buffer.alloc(size);
    write(b);
    this.parts.push(b);
    return this;
  }
}
