import { request } from 'node:http';

/** What a scenario's consumers saw: per message sequence number, when it was first read. */
export interface Deliveries {
  received: Map<number, number>;
  duplicates: number;
  /** readiness probes read (bodies that do not start with a sequence number) */
  probes: number;
}

export function newDeliveries(): Deliveries {
  return { received: new Map(), duplicates: 0, probes: 0 };
}

/** records message `seq` (a body starting with `<seq>:`) as read now */
export function record(deliveries: Deliveries, body: string): void {
  const seq = Number(body.split(':')[0]);
  if (Number.isNaN(seq)) return void deliveries.probes++;
  if (deliveries.received.has(seq)) deliveries.duplicates++;
  else deliveries.received.set(seq, performance.now());
}

/** One SSE consumer of a gateway stream; resolves with a function that disconnects it. */
export function consumeSse(url: string, deliveries: Deliveries): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream' } }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          record(deliveries, event.slice('data: '.length));
        }
      });
      resolve(() => req.destroy());
    });
    req.on('error', (err) =>
      err.message.includes('aborted') || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err),
    );
    req.end();
  });
}

/** Sends MESSAGES messages with `concurrency` senders; returns when they were sent and how many were refused. */
export async function sendAll(
  messages: number,
  concurrency: number,
  send: (seq: number, body: string) => Promise<boolean>,
): Promise<{ sentAt: number[]; started: number; refused: number }> {
  const sentAt = new Array<number>(messages);
  let next = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < messages) {
        const seq = next++;
        sentAt[seq] = performance.now();
        if (!(await send(seq, `${seq}:${'x'.repeat(100)}`))) refused++;
      }
    }),
  );
  return { sentAt, started, refused };
}

/** Waits (up to 30 s) for every message, then prints the scenario's rows; sets a failing exit code on loss or duplication. */
export async function report(
  title: string,
  messages: number,
  deliveries: Deliveries,
  sent: { sentAt: number[]; started: number; refused: number },
  extra: Array<[string, string | number]>,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (deliveries.received.size < messages && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const last = Math.max(...deliveries.received.values());
  const latencies = [...deliveries.received].map(([seq, at]) => at - sent.sentAt[seq]).sort((a, b) => a - b);
  const p = (q: number) =>
    latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))].toFixed(2) : 'n/a';
  const lost = messages - deliveries.received.size;
  const rows: Array<[string, string | number]> = [
    ['messages', messages],
    ...extra,
    ['msg/s end to end', Math.round(deliveries.received.size / ((last - sent.started) / 1000))],
    ['latency p50 ms', p(0.5)],
    ['latency p99 ms', p(0.99)],
    ['lost', lost],
    ['duplicated', deliveries.duplicates],
    ['sends refused', sent.refused],
  ];
  process.stdout.write(`\n${title}\n`);
  for (const [name, value] of rows) process.stdout.write(`  ${String(name).padEnd(20)} ${value}\n`);
  if (lost > 0 || deliveries.duplicates > 0) process.exitCode = 1;
}
