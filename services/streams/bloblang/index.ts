/**
 * Bloblang, the mapping language of the reference gateway's streams (Bento's language), as a
 * pure library: parseMapping once, execute per message; no Moleculer, no I/O.
 */
export {
  parseMapping,
  execute,
  executeOnto,
  check,
  DEFAULT_ENV_PREFIX,
  type Mapping,
  type MappingMessage,
  type MappedMessage,
  type MappingOutcome,
  type MappingOptions,
} from './runner';
export { setDefaultTimeBudget } from './budget';
export { parseInterpolation, interpolate, type Interpolation } from './interpolation';
export { findMappingErrors, type ConfigMappingError } from './validate-config';
export {
  MappingError,
  MappingSyntaxError,
  GW_ERR_STREAMS_MAPPING_FAILED,
  GW_ERR_STREAMS_MAPPING_SYNTAX,
} from './errors';
