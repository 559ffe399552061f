import { GENERAL_METHODS } from './methods-general';
import { NUMBER_METHODS } from './methods-numbers';
import { STRING_METHODS } from './methods-strings';
import { STRUCTURED_METHODS } from './methods-structured';
import type { MethodSpec } from './registry';

/** Every method a mapping may call, by name (see the README's list). */
export const METHODS: Record<string, MethodSpec> = Object.assign(Object.create(null) as Record<string, MethodSpec>, {
  ...GENERAL_METHODS,
  ...STRING_METHODS,
  ...NUMBER_METHODS,
  ...STRUCTURED_METHODS,
});
