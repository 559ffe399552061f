import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { compileEndpointPattern, type PathMatcher } from '../../../lib/patterns/endpoint-pattern';
import { readVersionSettings } from '../pipeline/versions';

interface EndpointMatcher {
  pattern: PathMatcher;
  /** '' = any method */
  method: string;
}

interface VersionTracking {
  doNotTrack: EndpointMatcher[];
  track: EndpointMatcher[];
}

/**
 * What an API records, as the reference gateway decides it: `do_not_track` on the API records
 * nothing; an `extended_paths.do_not_track_endpoints` entry (also read as
 * `do_not_track_endpoint`) records nothing for the endpoints it matches; `track_endpoints`
 * (`track_endpoint`) entries mark the records of their endpoints as tracked (TrackPath), which
 * is what per-endpoint activity counts. A version without any track entry tracks every path
 * (the reference pump's `track_all_paths`).
 */
export interface ApiTracking {
  /** undefined: the request is not recorded; otherwise whether it counts per endpoint */
  decide(versionName: string | undefined, method: string, relativePath: string): boolean | undefined;
  /** seconds a raw record is kept (expire_analytics_after); 0 keeps it */
  expireAfter: number;
  /** the API authenticates its requests (not `use_keyless`): its refusals before that are anonymous */
  authenticates: boolean;
  /** request headers whose value tags the record as `<header>-<value>` (`tag_headers`, lower case) */
  tagHeaders: readonly string[];
}

export const NOT_TRACKED: ApiTracking = {
  decide: () => undefined,
  expireAfter: 0,
  authenticates: false,
  tagHeaders: [],
};

export function compileTracking(definition: ApiDefinition): ApiTracking {
  const raw = definition as unknown as Record<string, unknown>;
  if (raw.do_not_track === true) return NOT_TRACKED;
  const settings = readVersionSettings(definition);
  const versions = new Map<string, VersionTracking>();
  for (const [name, version] of settings.versions) versions.set(name, compileVersion(version));
  const fallback = versions.values().next().value as VersionTracking;
  const expire = Number(raw.expire_analytics_after);
  return {
    expireAfter: Number.isFinite(expire) && expire > 0 ? expire : 0,
    authenticates: definition.use_keyless !== true,
    tagHeaders: tagHeadersOf(raw.tag_headers),
    decide(versionName, method, relativePath) {
      const tracking = (versionName !== undefined ? versions.get(versionName) : undefined) ?? fallback;
      if (anyMatches(tracking.doNotTrack, method, relativePath)) return undefined;
      return tracking.track.length === 0 || anyMatches(tracking.track, method, relativePath);
    },
  };
}

/** A loop rather than `some` with an arrow: this runs for every tracked request, and an arrow over the request's values is a closure allocated each time. */
function anyMatches(matchers: EndpointMatcher[], method: string, relativePath: string): boolean {
  for (const matcher of matchers)
    if ((matcher.method === '' || matcher.method === method) && matcher.pattern.test(relativePath)) return true;
  return false;
}

function compileVersion(version: Record<string, unknown>): VersionTracking {
  const extended = (version.use_extended_paths === true ? version.extended_paths : undefined) as
    Record<string, unknown> | undefined;
  const ignoreCase = version.ignore_endpoint_case === true;
  const list = (...names: string[]) =>
    names
      .flatMap((name) => (Array.isArray(extended?.[name]) ? (extended[name] as unknown[]) : []))
      .filter((entry): entry is { path?: unknown; method?: unknown } => typeof entry === 'object' && entry !== null)
      .filter((entry) => (entry as { disabled?: unknown }).disabled !== true)
      .map((entry) => ({
        pattern: compileEndpointPattern(typeof entry.path === 'string' ? entry.path : '/', ignoreCase),
        method: typeof entry.method === 'string' ? entry.method.toUpperCase() : '',
      }));
  return {
    doNotTrack: list('do_not_track_endpoints', 'do_not_track_endpoint'),
    track: list('track_endpoints', 'track_endpoint'),
  };
}

/** At most 32 header names, lower case as Node gives them. */
function tagHeadersOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((name): name is string => typeof name === 'string' && name !== '')
    .slice(0, 32)
    .map((name) => name.toLowerCase());
}
