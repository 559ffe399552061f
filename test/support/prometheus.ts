import { strict as assert } from 'node:assert';
import { http } from './http';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text exposition format (the subset prom-client writes). */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1]] = pair[2].replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** GETs a /metrics URL with a plain HTTP request and parses it. */
/** The metrics token the metrics tests give their nodes (GW_METRICS_TOKEN). */
export const TEST_METRICS_TOKEN = 'metrics-test-token';

export async function scrape(url: string, token = TEST_METRICS_TOKEN): Promise<Sample[]> {
  const res = await http(url, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseExposition(res.text);
}

/** The value of the one sample with exactly these labels; undefined when there is none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  return samples.find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === wanted)?.value;
}
