import { z } from 'zod';
import { isRecord } from '../check';
import type { FormSchema } from '../form/formTypes';
import { parseFormSchema } from '../form/parseFormSchema';
import { WaitforError } from '../waitforError';

/** A zod object schema a question is written with (zod or zod/mini): every field one form field. */
export type QuestionSchema = z.core.$ZodObject;

const refuse = (path: string, message: string, cause?: unknown): never => {
  throw new WaitforError('invalid_schema', path === '' ? message : `${path}: ${message}`, {
    path,
    cause,
  });
};

/** True for `{const: "…"}` choices, the way zod writes a union of string literals. */
const stringChoices = (value: unknown): value is Record<string, unknown>[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((choice) => isRecord(choice) && typeof choice.const === 'string');

/** `{const, title?}` only: zod adds `type: "string"` to each choice. */
const choice = ({ const: value, title }: Record<string, unknown>) =>
  title === undefined ? { const: value } : { const: value, title };

/**
 * Rewrites zod's JSON Schema of one field into the form subset: a union of string literals becomes
 * a titled single select (`oneOf`), a lone literal a one-choice enum, an array of literals a titled
 * multi-select. Anything else is left for parseFormSchema to accept or refuse.
 */
function formProperty(json: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...property } = json;
  if (stringChoices(property.anyOf)) {
    const { anyOf, ...rest } = property;
    return { type: 'string', ...rest, oneOf: anyOf.map(choice) };
  }
  if (property.type === 'string' && typeof property.const === 'string') {
    const { const: value, ...rest } = property;
    return { ...rest, enum: [value] };
  }
  if (property.type === 'array' && isRecord(property.items) && stringChoices(property.items.anyOf))
    return { ...property, items: { anyOf: property.items.anyOf.map(choice) } };
  return property;
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * The restricted elicitation form schema of a zod object schema (deeply frozen), with titles and
 * descriptions from its metadata. Throws WaitforError `invalid_schema` whose path is the field
 * that has no form equivalent (a nested object, a record, a tuple, a union of several types, a
 * nullable, a date…) or whose name is `__proto__` (zod would drop its answer), or '' when the
 * schema is not a zod object.
 */
export function toFormSchema(schema: QuestionSchema): FormSchema {
  // The definition's type, not instanceof: a schema of zod/mini or of another copy of zod is one too.
  if ((schema as Partial<QuestionSchema> | null)?._zod?.def?.type !== 'object')
    refuse('', 'A question schema must be a zod object');
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(schema._zod.def.shape)) {
    // zod's object parser assigns each key, and assigning `__proto__` sets no field: the person's
    // answer to it would be dropped without a word. Every other name (inherited ones too) arrives.
    if (name === '__proto__')
      refuse(name, 'cannot be a field name (zod drops it from the parsed answer)');
    let json: Record<string, unknown>;
    try {
      // Input side: a field with a default may be left empty by the person.
      json = z.toJSONSchema(z.object({ [name]: field }), {
        io: 'input',
        unrepresentable: 'throw',
      }) as Record<string, unknown>;
    } catch (error) {
      return refuse(name, `has no form equivalent (${messageOf(error)})`, error);
    }
    const property = formProperty(
      (json.properties as Record<string, Record<string, unknown>>)[name]!,
    );
    // A form field cannot pin one number or boolean; parseFormSchema would keep `const` unhonoured.
    if (property.const !== undefined) refuse(name, 'has no form equivalent (a non-string literal)');
    const isRequired = (json.required as string[] | undefined)?.includes(name) === true;
    try {
      // One field at a time, so the error names it whatever characters its name holds.
      parseFormSchema({
        type: 'object',
        properties: { [name]: property },
        ...(isRequired && { required: [name] }),
      });
    } catch (error) {
      return refuse(name, `has no form equivalent (${messageOf(error)})`, error);
    }
    Object.defineProperty(properties, name, { value: property, enumerable: true });
    if (isRequired) required.push(name);
  }
  const meta = z.globalRegistry.get(schema);
  return parseFormSchema({
    type: 'object',
    ...(typeof meta?.title === 'string' && { title: meta.title }),
    ...(typeof meta?.description === 'string' && { description: meta.description }),
    properties,
    ...(required.length > 0 && { required }),
  });
}
