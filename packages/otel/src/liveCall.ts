import type { Context } from '@opentelemetry/api';
import type { ExtensionHost } from '@waitfor/mcp-bridge';

/** A bridge call in flight, as the question tracker attributes questions to it. */
export interface LiveCall {
  host: ExtensionHost | undefined;
  server: string;
  era: 'legacy' | 'modern';
  tool: string | undefined;
  prompt: string | undefined;
  resource: string | undefined;
  /** The context with the call's span (undefined when not tracing). */
  context: Context | undefined;
  /** Questions of this call asked and not yet answered. */
  open: number;
  /** Modern era: rounds that asked someone. */
  rounds: number;
  questions: number;
}
