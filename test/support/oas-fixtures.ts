import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const DIR = join(__dirname, '..', 'fixtures', 'oas');

/** A fixture document as YAML text, its upstream pointed at `upstreamUrl`. */
export function oasFixtureText(name: string, upstreamUrl: string): string {
  return readFileSync(join(DIR, name), 'utf8').replace(/url: UPSTREAM_URL/g, `url: ${upstreamUrl}`);
}

/** A fixture document as data, for tests that change it before sending it (as JSON). */
export function oasFixture(name: string, upstreamUrl: string): Record<string, any> {
  return parse(oasFixtureText(name, upstreamUrl)) as Record<string, any>;
}
