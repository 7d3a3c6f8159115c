/**
 * Types of the restricted elicitation form schema (MCP `requestedSchema`): a flat object whose
 * properties are strings, numbers, integers, booleans, single-select or multi-select enums.
 */
import type { FieldErrors } from '../waitforError';

/** A value a form field holds. */
export type FormValue = string | number | boolean | string[];

/** A choice of a select field: `{const, title}` in the titled enum shapes. */
export interface FormChoiceSchema {
  const: string;
  title?: string;
  [keyword: string]: unknown;
}

/** What every property schema may carry. Unknown keywords (e.g. `pattern`) are kept, not honoured. */
interface FormPropertyBase {
  title?: string;
  description?: string;
  [keyword: string]: unknown;
}

/** `{type: "string"}` with optional length bounds and format. */
export interface FormStringSchema extends FormPropertyBase {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time' | (string & {});
  default?: string;
}

/** `{type: "number" | "integer"}` with optional bounds. */
export interface FormNumberSchema extends FormPropertyBase {
  type: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
  default?: number;
}

/** `{type: "boolean"}`. */
export interface FormBooleanSchema extends FormPropertyBase {
  type: 'boolean';
  default?: boolean;
}

/** Single select: untitled `enum`, legacy `enum` + `enumNames`, or titled `oneOf`. */
export interface FormSingleSelectSchema extends FormPropertyBase {
  type: 'string';
  enum?: string[];
  enumNames?: string[];
  oneOf?: FormChoiceSchema[];
  default?: string;
}

/** Multi select: `items.enum` (untitled) or `items.anyOf` / `items.oneOf` (titled). */
export interface FormMultiSelectSchema extends FormPropertyBase {
  type: 'array';
  minItems?: number;
  maxItems?: number;
  items: {
    type?: 'string';
    enum?: string[];
    anyOf?: FormChoiceSchema[];
    oneOf?: FormChoiceSchema[];
  };
  default?: string[];
}

/** One property of a form schema. */
export type FormPropertySchema =
  | FormStringSchema
  | FormNumberSchema
  | FormBooleanSchema
  | FormSingleSelectSchema
  | FormMultiSelectSchema;

/** A checked restricted form schema, as returned (deeply frozen) by parseFormSchema. */
export interface FormSchema {
  $schema?: string;
  type: 'object';
  title?: string;
  description?: string;
  properties: Record<string, FormPropertySchema>;
  required?: string[];
  [keyword: string]: unknown;
}

/** The six kinds of input a UI or a terminal prompt renders. */
export type FormFieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'select' | 'multiselect';

/** One choice of a select or multiselect field. */
export interface FormOption {
  value: string;
  label: string;
}

/** A property normalised for rendering: every enum shape becomes `options`. */
export interface FormField {
  name: string;
  kind: FormFieldKind;
  /** The property's title, or its name when it has none. */
  title: string;
  description?: string;
  required: boolean;
  default?: FormValue;
  options?: readonly FormOption[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** Options of validateFormAnswer. */
export interface FormAnswerOptions {
  /**
   * Fill an omitted field (undefined or null) with its default (true, the default). False: the
   * answer is taken as given — an omitted optional field stays out, an omitted required one is
   * "Required." even when it has a default, so nothing is sent that the person did not give.
   */
  defaults?: boolean;
}

/** The outcome of validateFormAnswer: the coerced value, or one message per offending field. */
export type FormValidation =
  { ok: true; value: Record<string, FormValue> } | { ok: false; errors: FieldErrors };
