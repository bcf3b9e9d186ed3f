// A problem the operator must fix before the gateway can start (wrong secret, unreachable or uncreatable
// database): main.ts prints its message as it is, without a stack trace, and exits 1.
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}
