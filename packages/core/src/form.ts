export type {
  FormAnswerOptions,
  FormBooleanSchema,
  FormChoiceSchema,
  FormField,
  FormFieldKind,
  FormMultiSelectSchema,
  FormNumberSchema,
  FormOption,
  FormPropertySchema,
  FormSchema,
  FormSingleSelectSchema,
  FormStringSchema,
  FormValidation,
  FormValue,
} from './form/formTypes';
export type { FormLimits, FormSchemaOptions } from './form/formLimits';
export { defaultFormLimits, resolveFormLimits } from './form/formLimits';
export { formFields, parseFormSchema } from './form/parseFormSchema';
export { formDefaults, validateAnswerData, validateFormAnswer } from './form/validateFormAnswer';
export { createFormSession } from './form/formSession';
export type { FormSession, FormSessionOptions, FormSnapshot } from './form/formSession';
export { inspectUrl } from './form/inspectUrl';
export type { UrlInspection, UrlProblem, UrlWarning } from './form/inspectUrl';
export { requestServer } from './form/requestServer';
