// The OpenAI error envelope: {"error":{"message","type","param","code"}}.
import type { GatewayError } from '../gateway-errors.ts';

interface RenderedError { status: number; body: string; headers?: Record<string, string> }

export function renderOpenAIError(error: GatewayError): RenderedError {
  return {
    status: error.status,
    body: JSON.stringify({
      error: { message: error.message, type: error.kind, param: error.param, code: error.code },
    }),
  };
}
