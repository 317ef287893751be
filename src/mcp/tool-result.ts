import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiProblem } from './api-problem.js';

/** A tool's answer: a readable text, and the same facts as structured content for its output schema. */
export function answer(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * Runs a tool's work and turns what the API refused (a problem detail, an instance out of reach)
 * into an error result whose text is the problem's title and detail: the model reads why and may
 * try again, and the server goes on serving (ADR 0033).
 */
export async function answerOrProblem(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ApiProblem)) throw error;
    return { content: [{ type: 'text', text: error.message }], isError: true };
  }
}
