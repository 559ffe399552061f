import type { GraphQLFieldResolver } from 'graphql';
import type { DataSource, FieldConfig } from '../../../../lib/graphql/combined-graph-config';

/**
 * Where a field's value sits in what its data source answered, or in its parent (reference
 * gateway's field mappings): at `path` when the field config names one, else at the field's
 * name, or, with `disable_default_mapping`, the whole answer (the reference's dashboard hides
 * the path when mapping is disabled; a path given anyway is still followed). A REST data source answers with the field's value itself,
 * so its fields map the whole answer unless a field config says otherwise; a GraphQL data
 * source answers `{<field>: value}` like the upstream's `data`.
 */
export function mappingPath(
  config: FieldConfig | undefined,
  fieldName: string,
  source: DataSource | undefined,
): string[] {
  if (config) return configuredPath(config, fieldName);
  return source?.kind === 'REST' ? [] : [fieldName];
}

/** Follows a path; through a list, it maps every element. */
export function valueAt(value: unknown, path: string[], from = 0): unknown {
  let current = value;
  for (let i = from; i < path.length; i++) {
    if (current === null || current === undefined) return null;
    if (Array.isArray(current)) return current.map((item) => valueAt(item, path, i));
    if (typeof current !== 'object') return null;
    current = (current as Record<string, unknown>)[path[i]];
  }
  return current === undefined ? null : current;
}

/**
 * How every field without a data source or field config is read from its parent: by its name,
 * or by its alias when the parent came from a GraphQL data source, which was asked with the
 * client's aliases.
 */
export const parentFieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, _args, _context, info) => {
  if (source === null || typeof source !== 'object') return undefined;
  const record = source as Record<string, unknown>;
  const key = info.path.key as string;
  if (key !== info.fieldName && key in record) return record[key];
  return record[info.fieldName];
};

/** A field config's path: its own `path` if set, else the whole answer when default mapping is off, else the field's name. */
export function configuredPath(config: FieldConfig, fieldName: string): string[] {
  if (config.path.length > 0) return config.path;
  return config.disableDefaultMapping ? [] : [fieldName];
}
