import { RE2JS } from 're2js';

/**
 * Regular expressions that come from tenants (endpoint paths, body extractors, allowed URLs)
 * run on RE2 (re2js): matching takes time linear in the input, whatever the pattern, so one
 * tenant's `(a+)+$` can not stall the gateway for everyone. RE2 has no backreferences and no
 * lookarounds, like the reference gateway's Go regexp; a pattern using them does not compile.
 */
export interface TenantPattern {
  /** true when the pattern matches somewhere in the input (anchors in the pattern apply) */
  test(input: string): boolean;
  /** the whole match and its groups, or null */
  exec(input: string): Array<string | undefined> | null;
  readonly groupCount: number;
}

export class PatternError extends Error {}

export function compileTenantPattern(source: string, options: { ignoreCase?: boolean } = {}): TenantPattern {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (err) {
    throw new PatternError((err as Error).message);
  }
  return {
    test: (input) => re.test(input),
    exec: (input) => re.exec(input) as Array<string | undefined> | null,
    groupCount: re.groupCount(),
  };
}
