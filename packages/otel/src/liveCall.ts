import type { Attributes, Context } from '@opentelemetry/api';
import type { ExtensionHost } from '@waitfor/mcp-bridge';

/** A bridge call in flight, as the question tracker attributes questions to it. */
export interface LiveCall {
  host: ExtensionHost | undefined;
  /** The call span's attributes (server, era, tool/prompt/resource: what a question's origin names). */
  attributes: Attributes;
  /** The context with the call's span (undefined when not tracing). */
  context: Context | undefined;
  /** Questions of this call asked and not yet answered. */
  open: number;
  /** Modern era: rounds that asked someone. */
  rounds: number;
  questions: number;
}
