import { camelCase, isEnumValueName, pascalCase } from './graphql-names';

/** A JSON Schema object as OpenAPI 3.0 and AsyncAPI 2 documents write it (only what is read here). */
export interface JsonSchema {
  $ref?: string;
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  [key: string]: unknown;
}

/** A schema with its references followed, and its document name when it has one (a component). */
export interface ResolvedSchema {
  schema: JsonSchema;
  name?: string;
}

/** A resolved schema and the document object it came from (one type per object, even when merged). */
interface TypeSource extends ResolvedSchema {
  origin: object;
}

/** A `graphql.engine.field_configs` entry (the reference gateway's format). */
export interface FieldConfig {
  type_name: string;
  field_name: string;
  disable_default_mapping: boolean;
  path: string[];
}

const SCALARS: Record<string, string> = { string: 'String', integer: 'Int', number: 'Float', boolean: 'Boolean' };
const JSON_SCALAR = 'JSON';
/** deepest nesting of unnamed schemas (and of allOf) followed */
const MAX_NESTING = 64;

/**
 * Turns the JSON schemas of a document into GraphQL types: object types for responses and
 * messages, input types for request bodies, enums, and a `JSON` scalar for what GraphQL cannot
 * describe (free-form objects, oneOf/anyOf). Components keep their names; inline schemas are
 * named after where they appear. A property whose name GraphQL does not allow gets a camelCase
 * field and a field config mapping it to the original key.
 */
export class SchemaTypes {
  private readonly declarations = new Map<string, string>();
  /** which schema holds each type name (a component used twice is one type) */
  private readonly owners = new Map<string, object>();
  private readonly pending = new Set<string>();
  readonly fieldConfigs: FieldConfig[] = [];
  private depth = 0;

  constructor(private readonly resolve: (schema: JsonSchema) => ResolvedSchema) {}

  /** The GraphQL output type of a schema; `hint` names it when the schema has no name of its own. */
  output(schema: JsonSchema, hint: string): string {
    return this.typeOf(schema, hint, 'output');
  }

  /** The GraphQL output type of a schema, named `name` whatever its own name (a message's payload takes the message's). */
  outputNamed(schema: JsonSchema, name: string): string {
    return this.typeOf(schema, name, 'output', true);
  }

  /** The GraphQL input type of a schema; objects become `<Name>Input`. */
  input(schema: JsonSchema, hint: string, required = false): string {
    const type = this.typeOf(schema, hint, 'input');
    return required ? `${type}!` : type;
  }

  /** Every declared type, as SDL. */
  sdl(): string {
    return [...this.declarations.values()].join('\n\n');
  }

  private typeOf(raw: JsonSchema, hint: string, direction: 'output' | 'input', preferHint = false): string {
    // Named objects end recursion by name; only a schema nesting itself without one (YAML aliases,
    // arrays of arrays of itself) gets this deep.
    if (this.depth >= MAX_NESTING) return this.jsonScalar();
    this.depth++;
    try {
      return this.typeOfResolved(raw, hint, direction, preferHint);
    } finally {
      this.depth--;
    }
  }

  private typeOfResolved(raw: JsonSchema, hint: string, direction: 'output' | 'input', preferHint: boolean): string {
    const { schema, name, origin } = this.resolved(raw);
    const typeName = preferHint ? hint : (name ?? hint);
    if (schema.oneOf || schema.anyOf) return this.jsonScalar();
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return this.enumType(schema, typeName, origin);
    if (schema.type === 'array' || (!schema.type && schema.items)) {
      return `[${schema.items ? this.typeOf(schema.items, `${typeName}ListItem`, direction) : this.jsonScalar()}]`;
    }
    if (schema.type === 'object' || (!schema.type && schema.properties)) {
      if (!schema.properties || Object.keys(schema.properties).length === 0) return this.jsonScalar();
      return direction === 'output'
        ? this.objectType(schema, typeName, origin)
        : this.inputType(schema, typeName, origin);
    }
    return SCALARS[schema.type ?? ''] ?? this.jsonScalar();
  }

  /** Follows references and merges `allOf` members into one object schema. */
  private resolved(raw: JsonSchema, nesting = 0): TypeSource {
    const resolved = this.resolve(raw);
    const members = resolved.schema.allOf;
    if (!Array.isArray(members) || nesting >= MAX_NESTING) return { ...resolved, origin: resolved.schema };
    const merged: JsonSchema = {
      type: 'object',
      description: resolved.schema.description,
      properties: {},
      required: [],
    };
    for (const member of [{ ...resolved.schema, allOf: undefined }, ...members]) {
      const part = this.resolved(member, nesting + 1).schema;
      Object.assign(merged.properties!, part.properties ?? {});
      merged.required!.push(...(part.required ?? []));
    }
    return { schema: merged, name: resolved.name, origin: resolved.schema };
  }

  private objectType(schema: JsonSchema, baseName: string, origin: object): string {
    const name = this.claim(pascalCase(baseName), origin);
    if (this.declarations.has(name) || this.pending.has(name)) return name;
    this.pending.add(name);
    const fields = Object.entries(schema.properties!).map(([key, property]) => {
      const field = this.fieldName(name, key);
      return `${describe(this.resolve(property).schema.description, '  ')}  ${field}: ${this.output(property, `${name}${pascalCase(key)}`)}`;
    });
    this.declare(name, `${describe(schema.description)}type ${name} {\n${fields.join('\n')}\n}`);
    return name;
  }

  private inputType(schema: JsonSchema, baseName: string, origin: object): string {
    const name = this.claim(`${pascalCase(baseName)}Input`, origin);
    if (this.declarations.has(name) || this.pending.has(name)) return name;
    this.pending.add(name);
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties!).map(
      ([key, property]) =>
        `  ${camelCase(key)}: ${this.input(property, `${baseName}${pascalCase(key)}`, required.has(key))}`,
    );
    this.declare(name, `input ${name} {\n${fields.join('\n')}\n}`);
    return name;
  }

  /** Values that are GraphQL names stay as they are, so what the upstream sends is a valid value. */
  private enumType(schema: JsonSchema, baseName: string, origin: object): string {
    const values = schema.enum!;
    if (!values.every(isEnumValueName)) return SCALARS[schema.type ?? ''] ?? this.jsonScalar();
    const name = this.claim(pascalCase(baseName), origin);
    if (!this.declarations.has(name))
      this.declare(
        name,
        `${describe(schema.description)}enum ${name} {\n${[...new Set(values)].map((v) => `  ${v}`).join('\n')}\n}`,
      );
    return name;
  }

  private jsonScalar(): string {
    if (!this.declarations.has(JSON_SCALAR)) {
      this.declarations.set(JSON_SCALAR, '"Any JSON value (a schema GraphQL cannot describe)."\nscalar JSON');
    }
    return JSON_SCALAR;
  }

  /** The field of a property; a key GraphQL does not allow is renamed and mapped back to the key. */
  private fieldName(typeName: string, key: string): string {
    if (/^[_A-Za-z][_0-9A-Za-z]*$/.test(key) && !key.startsWith('__')) return key;
    const field = camelCase(key);
    this.fieldConfigs.push({ type_name: typeName, field_name: field, disable_default_mapping: false, path: [key] });
    return field;
  }

  /** `name`, or `name2`, `name3`… when another schema already holds it. */
  private claim(name: string, schema: object): string {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? name : `${name}${n}`;
      const owner = this.owners.get(candidate);
      if (owner === schema) return candidate;
      if (owner === undefined && !RESERVED.has(candidate)) {
        this.owners.set(candidate, schema);
        return candidate;
      }
    }
  }

  private declare(name: string, sdl: string): void {
    this.pending.delete(name);
    this.declarations.set(name, sdl);
  }
}

/** Names the generated schema uses itself or GraphQL defines. */
const RESERVED = new Set(['Query', 'Mutation', 'Subscription', 'String', 'Int', 'Float', 'Boolean', 'ID', JSON_SCALAR]);

function describe(description: unknown, indent = ''): string {
  return typeof description === 'string' && description.trim() !== ''
    ? `${indent}${JSON.stringify(description.trim())}\n`
    : '';
}
