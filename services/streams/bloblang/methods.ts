import { EXTRA_METHODS } from './methods-extra';
import { FORMAT_METHODS } from './methods-formats';
import { GENERAL_METHODS } from './methods-general';
import { NUMBER_METHODS } from './methods-numbers';
import { STRING_METHODS } from './methods-strings';
import { STRUCTURED_METHODS } from './methods-structured';
import { TIME_METHODS } from './methods-time';
import type { MethodSpec } from './registry';

/** Every method a mapping may call, by name (see the list in REFERENCE.md#methods). */
export const METHODS: Record<string, MethodSpec> = Object.assign(Object.create(null) as Record<string, MethodSpec>, {
  ...GENERAL_METHODS,
  ...STRING_METHODS,
  ...NUMBER_METHODS,
  ...STRUCTURED_METHODS,
  ...EXTRA_METHODS,
  ...TIME_METHODS,
  ...FORMAT_METHODS,
});
