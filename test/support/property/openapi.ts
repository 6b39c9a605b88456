/**
 * fast-check arbitraries from the custody API's OpenAPI document: walks `$ref`, `allOf`, `oneOf`,
 * `anyOf`, enums, objects and arrays of a named schema. Overrides replace the generator of a whole
 * schema (`TransactionTransfer`) or of one property (`apiv2Address.value`) with a domain one, so
 * that the generated bodies carry valid names and plausible transfers.
 */
import fc from "fast-check";

type Schema = Record<string, unknown>;
export type Overrides = Record<string, fc.Arbitrary<unknown>>;

export class OpenApiArbitraries {
  private readonly schemas: Record<string, Schema>;
  private readonly cache = new Map<string, fc.Arbitrary<unknown>>();

  constructor(
    document: Record<string, unknown>,
    private readonly overrides: Overrides = {},
  ) {
    const components = document.components as { schemas?: Record<string, Schema> } | undefined;
    if (!components?.schemas) throw new Error("the OpenAPI document has no components.schemas");
    this.schemas = components.schemas;
  }

  /** Names of the schemas reachable from `name` (itself included). */
  reachable(name: string, seen = new Set<string>()): Set<string> {
    if (seen.has(name)) return seen;
    seen.add(name);
    for (const ref of refsIn(this.schema(name))) this.reachable(ref, seen);
    return seen;
  }

  /** Property names of an object schema (after allOf). */
  properties(name: string): string[] {
    return Object.keys(this.schema(name).properties ?? {});
  }

  /** The schema a property of an object schema refers to, or null for a plain value. */
  propertyRef(name: string, property: string): string | null {
    const prop = ((this.schema(name).properties ?? {}) as Record<string, Schema>)[property];
    return prop === undefined ? null : ([...refsIn(prop)][0] ?? null);
  }

  named(name: string): fc.Arbitrary<unknown> {
    const override = this.overrides[name];
    if (override) return override;
    let arb = this.cache.get(name);
    if (!arb) {
      // v2Transaction's schemas form a tree (no schema refers back to itself), so no cycle guard.
      arb = this.fromSchema(this.schema(name), name);
      this.cache.set(name, arb);
    }
    return arb;
  }

  /** One property of an object schema, with its override. */
  property(name: string, property: string): fc.Arbitrary<unknown> {
    const override = this.overrides[`${name}.${property}`];
    if (override) return override;
    const prop = ((this.schema(name).properties ?? {}) as Record<string, Schema>)[property];
    if (prop === undefined) throw new Error(`${name} has no property ${property}`);
    return this.fromSchema(prop, `${name}.${property}`);
  }

  /** An object schema's record, built from its properties (their overrides apply, a whole-schema override does not). */
  record(name: string): fc.Arbitrary<Record<string, unknown>> {
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const key of this.properties(name)) model[key] = this.property(name, key);
    const required = ((this.schema(name).required ?? []) as string[]).filter((k) => k in model);
    return fc.record(model, { requiredKeys: required });
  }

  /**
   * An object of the schema with a few of its properties: `always` ones plus up to `maxKeys` others.
   * A record of all of v2Transaction's 38 optional fields would be large and slow to generate.
   */
  someProperties(name: string, maxKeys: number, always: readonly string[] = []): fc.Arbitrary<Record<string, unknown>> {
    const others = this.properties(name).filter((k) => !always.includes(k));
    return fc.subarray(others, { maxLength: maxKeys }).chain((keys) => {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const key of [...always, ...keys]) model[key] = this.property(name, key);
      return fc.record(model);
    });
  }

  /** An object of the schema holding exactly one of its properties (a oneof in the platform's protobuf). */
  oneProperty(name: string, among: readonly string[] = this.properties(name)): fc.Arbitrary<Record<string, unknown>> {
    return fc.oneof(...among.map((key) => this.property(name, key).map((value) => ({ [key]: value }))));
  }

  private schema(name: string): Schema {
    const schema = this.schemas[name];
    if (!schema) throw new Error(`no schema ${name} in the OpenAPI document`);
    return schema;
  }

  private fromSchema(schema: Schema, where: string): fc.Arbitrary<unknown> {
    if (typeof schema.$ref === "string") return this.named(refName(schema.$ref));
    const allOf = schema.allOf as Schema[] | undefined;
    if (allOf) {
      const parts = allOf.map((s, i) => this.fromSchema(s, `${where}[allOf ${i}]`));
      return parts.length === 1 ? parts[0]! : fc.tuple(...parts).map((values) => Object.assign({}, ...values.filter(isRecord)));
    }
    const choices = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    if (choices) return fc.oneof(...choices.map((s, i) => this.fromSchema(s, `${where}[oneOf ${i}]`)));
    if (Array.isArray(schema.enum)) {
      // Mostly the documented values, now and then one the document does not list.
      return fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...(schema.enum as unknown[])) }, { weight: 1, arbitrary: fc.constantFrom("UNSPECIFIED", "FUTURE_VALUE") });
    }
    switch (schema.type) {
      case "object":
        return this.object(schema, where);
      case "array":
        return fc.array(this.fromSchema((schema.items ?? {}) as Schema, `${where}[]`), { maxLength: 3 });
      case "string":
        return stringFor(schema.format as string | undefined);
      case "integer":
        return fc.integer({ min: 0, max: 1_000_000 });
      case "number":
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case "boolean":
        return fc.boolean();
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private object(schema: Schema, where: string): fc.Arbitrary<unknown> {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const names = Object.keys(props);
    // A free-form object (XRPL's jsonTransactionData): any small JSON object.
    if (names.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    const name = where.split(/[.[]/)[0]!;
    for (const key of names) model[key] = this.overrides[`${name}.${key}`] ?? this.fromSchema(props[key]!, `${where}.${key}`);
    const required = ((schema.required ?? []) as string[]).filter((k) => names.includes(k));
    return fc.record(model, { requiredKeys: required });
  }
}

function stringFor(format: string | undefined): fc.Arbitrary<string> {
  switch (format) {
    case "date-time":
      return fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());
    case "byte":
      return fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString("base64"));
    case "int64":
      return fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String);
    default:
      return fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("", "0", "1", "0x", "native"));
  }
}

const refName = (ref: string): string => ref.slice(ref.lastIndexOf("/") + 1);

function* refsIn(value: unknown): Generator<string> {
  if (Array.isArray(value)) for (const v of value) yield* refsIn(v);
  else if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") yield refName(v);
      else yield* refsIn(v);
    }
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
