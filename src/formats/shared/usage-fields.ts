// Helpers for the usage readers: a count the wire does not carry stays undefined (unknown), never 0.

/** A non-negative integer count, or undefined when the wire leaves it out or sends something else. */
export function countField(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

/** The sum of the known counts, or undefined when none is known. */
export function sumKnown(...values: (number | undefined)[]): number | undefined {
  let total: number | undefined;
  for (const value of values) if (value !== undefined) total = (total ?? 0) + value;
  return total;
}

/** The object itself when it is one, else null (usage may be null, absent or garbage on the wire). */
export function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * A usage object holding only the known counts, so that "unknown" is an absent key as HubUsage documents
 * (built by assignment rather than by deleting keys, which would leave V8 a slow dictionary object).
 */
export function knownCounts<T extends object>(counts: { [K in keyof T]: number | undefined }): T {
  const usage = {} as Record<string, number>;
  for (const key in counts) {
    const value = counts[key];
    if (value !== undefined) usage[key] = value;
  }
  return usage as T;
}
