import type { DirectiveNode } from 'graphql';

/** Whether `@skip` / `@include` on a selection let it through with these variables. */
export function isIncluded(directives: readonly DirectiveNode[], variables: Record<string, unknown>): boolean {
  for (const directive of directives) {
    const name = directive.name.value;
    if (name !== 'skip' && name !== 'include') continue;
    const argument = directive.arguments?.find((a) => a.name.value === 'if')?.value;
    const condition =
      argument?.kind === 'Variable'
        ? Boolean(variables[argument.name.value])
        : argument?.kind === 'BooleanValue'
          ? argument.value
          : false;
    if (name === 'skip' ? condition : !condition) return false;
  }
  return true;
}
