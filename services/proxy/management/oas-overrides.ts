import type { OasPatchOverrides } from '../../../contracts/apis/actions';

const TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/**
 * The reference gateway's import options as query parameters: upstreamURL, listenPath and
 * customDomain (trimmed, empty ignored); allowList, validateRequest, mockResponse and
 * authentication as Go's strconv.ParseBool reads them (anything else ignored).
 */
export function oasOverrides(query: Record<string, unknown>): OasPatchOverrides | undefined {
  const text = (name: string) => (typeof query[name] === 'string' ? query[name].trim() : '');
  const flag = (name: string) => {
    const value = text(name);
    if (TRUE.includes(value)) return true;
    if (FALSE.includes(value)) return false;
    return undefined;
  };
  const overrides: OasPatchOverrides = {};
  for (const name of ['upstreamURL', 'listenPath', 'customDomain'] as const) {
    if (text(name)) overrides[name] = text(name);
  }
  for (const name of ['allowList', 'validateRequest', 'mockResponse', 'authentication'] as const) {
    const value = flag(name);
    if (value !== undefined) overrides[name] = value;
  }
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}
