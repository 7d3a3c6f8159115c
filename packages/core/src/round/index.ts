/**
 * The round engine: the one way a round of Requests is asked and a suspended round finished, for
 * every driver (core's tool runner, the bridge's modern era). Framework- and MCP-free: plain
 * Requests, Answers and AbortSignals.
 *
 * Invariants: all of a round's questions start before any finishes, and one listener on the
 * caller's signal ends them all; an invalid form is asked again under a fresh id at most
 * `maxAttempts` times in all; a suspension is read (and its forms parsed) once, and a resume hands
 * on exactly one well-formed, checked Answer per question — none missing, foreign or repeated.
 */
export { askAll, type RoundQuestion } from './askAll';
export {
  askUntilValid,
  type AnswerCheck,
  type AskUntilValidOptions,
  type AskUntilValidResult,
} from './askUntilValid';
export { answersFor, type AnswerMismatch, type SuspendedQuestion } from './answersFor';
export { checkQuestions, checkRequests, isForm, requestsOf } from './checkRequests';
export { DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_REQUESTS, DEFAULT_MAX_ROUNDS } from './defaults';
export {
  parseSuspension,
  type ParsedSuspension,
  type SuspensionFail,
  type SuspensionShape,
} from './suspension';
export { resumeRound, type RoundDriver } from './resumeRound';
