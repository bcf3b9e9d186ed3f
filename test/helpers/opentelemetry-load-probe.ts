// Loaded with --import into a gateway process by test/telemetry/tracing-process.test.ts: reports on
// standard error every OpenTelemetry module the process resolves (ESM imports and CommonJS requires both
// pass through these hooks), so the test can tell whether the gateway loaded any.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (resolved.url.includes('/node_modules/@opentelemetry/')) process.stderr.write(`OPENTELEMETRY-MODULE ${resolved.url}\n`);
    return resolved;
  },
});
