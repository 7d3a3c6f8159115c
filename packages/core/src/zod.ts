export { defineQuestion, isQuestion } from './zod/question';
export type {
  AskResult,
  Question,
  QuestionCheck,
  QuestionDefinition,
  QuestionRequestOptions,
} from './zod/question';
export { ask, askUrl } from './zod/ask';
export type { AskOptions, UrlQuestion } from './zod/ask';
export { toFormSchema } from './zod/toFormSchema';
export type { QuestionSchema } from './zod/toFormSchema';
