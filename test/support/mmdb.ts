/**
 * Writes a tiny MaxMind DB (.mmdb, format 2.0) mapping IPv4 networks to countries, so tests can
 * exercise GW_GEOIP_DB with the real `maxmind` reader (no database download).
 * Format: https://maxmind.github.io/MaxMind-DB/ (24-bit records, IPv4 tree).
 */

type Value = string | number | bigint | Value[] | { [key: string]: Value };

function control(type: number, size: number): Buffer {
  if (size >= 29) throw new Error('mmdb test writer: values of 29 bytes or more are not supported');
  return type <= 7 ? Buffer.from([(type << 5) | size]) : Buffer.from([size, type - 7]);
}

function uint(type: number, value: number | bigint): Buffer {
  const bytes: number[] = [];
  for (let v = BigInt(value); v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn));
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)]);
}

function encode(value: Value): Buffer {
  if (typeof value === 'string') return Buffer.concat([control(2, Buffer.byteLength(value)), Buffer.from(value)]);
  if (typeof value === 'bigint') return uint(9, value);
  if (typeof value === 'number') return uint(value > 0xffff ? 6 : 5, value);
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([
    control(7, entries.length),
    ...entries.flatMap(([key, inner]) => [encode(key), encode(inner)]),
  ]);
}

function record24(value: number): number[] {
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

/** `networks`: CIDR (IPv4) → ISO country code; the networks must not overlap. */
export function countryMmdb(networks: Record<string, string>): Buffer {
  const dataParts: Buffer[] = [];
  const dataOffsets: number[] = [];
  let dataLength = 0;
  // The tree: node 0 is the root; a child of -1 is "no data", -(2 + i) is the data of network i.
  const nodes: Array<[number, number]> = [[-1, -1]];
  Object.entries(networks).forEach(([cidr, country], index) => {
    const [address, prefix] = cidr.split('/');
    const bits = address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
    let node = 0;
    for (let depth = 0; depth < Number(prefix); depth++) {
      const bit = Number((bits >> BigInt(31 - depth)) & 1n);
      if (depth === Number(prefix) - 1) nodes[node][bit] = -(2 + index);
      else {
        if (nodes[node][bit] < 0) {
          nodes.push([-1, -1]);
          nodes[node][bit] = nodes.length - 1;
        }
        node = nodes[node][bit];
      }
    }
    const data = encode({ country: { iso_code: country, names: { en: country } } });
    dataOffsets.push(dataLength);
    dataParts.push(data);
    dataLength += data.length;
  });
  const nodeCount = nodes.length;
  const resolve = (child: number) =>
    child >= 0 ? child : child === -1 ? nodeCount : nodeCount + 16 + dataOffsets[-child - 2];
  const tree = Buffer.from(nodes.flatMap(([left, right]) => [...record24(resolve(left)), ...record24(resolve(right))]));
  const metadata = encode({
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: BigInt(Math.floor(Date.now() / 1000)),
    database_type: 'GeoLite2-Country',
    description: { en: 'gw test database' },
    ip_version: 4,
    languages: ['en'],
    node_count: nodeCount,
    record_size: 24,
  });
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    ...dataParts,
    Buffer.from([0xab, 0xcd, 0xef]),
    Buffer.from('MaxMind.com'),
    metadata,
  ]);
}
