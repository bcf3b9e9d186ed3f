// The body fields a client format declares for "report usage in this stream" (its `streamUsageOption`,
// OpenAI's stream_options.include_usage), applied to a passthrough body. The declaration is the only source
// of the field names and values: this module reads them, serialises them once per format, and merges them
// into a client's body without losing what the client set there itself.
import type { FormatConverters } from '../../hub/hub-format.ts';

export interface StreamUsageOption {
  /** Whether the client's own body already asks for everything the option asks for. */
  askedBy(body: Readonly<Record<string, unknown>>): boolean;
  /** Whether the body sets none of the option's fields: then the bytes can simply be appended. */
  absentFrom(body: Readonly<Record<string, unknown>>): boolean;
  /** The option's fields as `,"k":v…` plus the closing brace: appended to a body in place of its own `}`. */
  appendBytes: Buffer;
  /** The body's fields with the option merged in (an object field keeps the client's other keys). */
  mergeInto(body: Record<string, unknown>): Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `wanted` is in `actual`: equal, or for objects every wanted key present with the wanted value. */
function contains(actual: unknown, wanted: unknown): boolean {
  if (!isObject(wanted)) return actual === wanted;
  return isObject(actual) && Object.entries(wanted).every(([key, value]) => contains(actual[key], value));
}

function build(option: Readonly<Record<string, unknown>>): StreamUsageOption {
  const entries = Object.entries(option);
  return {
    askedBy: (body) => entries.every(([key, value]) => contains(body[key], value)),
    absentFrom: (body) => entries.every(([key]) => body[key] === undefined),
    appendBytes: Buffer.from(`,${JSON.stringify(option).slice(1, -1)}}`),
    mergeInto(body) {
      const merged = { ...body };
      for (const [key, value] of entries) merged[key] = isObject(value) && isObject(body[key]) ? { ...body[key], ...value } : value;
      return merged;
    },
  };
}

// Built once per format declaration: the relay asks for it on every passthrough call.
const built = new WeakMap<object, StreamUsageOption>();

/** The format's declared stream usage option, ready to apply; null when its streams always carry usage. */
export function streamUsageOptionOf(format: Pick<FormatConverters, 'streamUsageOption'>): StreamUsageOption | null {
  const option = format.streamUsageOption;
  if (option === null) return null;
  let ready = built.get(option);
  if (!ready) {
    ready = build(option);
    built.set(option, ready);
  }
  return ready;
}
