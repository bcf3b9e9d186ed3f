// Tells a row the database refuses (retrying cannot help: find it and set it aside) from a database that is
// away, busy or full for a moment (retry the same rows later). Getting this wrong either way is costly: a
// refused row treated as an outage jams every write behind it; an outage treated as refused rows would
// dead-letter every call of the outage. So only errors that name the data count as refusals.

/**
 * PostgreSQL SQLSTATE classes that describe the statement's data, not the server's state:
 * 22 data exception (a NUL byte, a number out of range), 23 integrity constraint (a deleted user's charge),
 * 42 syntax or access rule (a value of the wrong type), 54 program limit (a row too large).
 * Everything else (08 connection, 40 serialization or deadlock, 53 disk full or out of memory, 57 shutdown,
 * 58 I/O, and network errors without a SQLSTATE) is an outage.
 * https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
const POSTGRES_REFUSAL_CLASSES = new Set(['22', '23', '42', '54']);

/**
 * SQLite primary result codes that describe the data: 1 SQLITE_ERROR (no such column, a bad value),
 * 18 TOOBIG, 19 CONSTRAINT, 20 MISMATCH, 25 RANGE. BUSY, LOCKED, NOMEM, READONLY, IOERR, FULL and
 * CANTOPEN are outages. https://www.sqlite.org/rescode.html
 */
const SQLITE_REFUSAL_CODES = new Set([1, 18, 19, 20, 25]);

export function isRowRefusal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, errcode } = error as Error & { code?: unknown; errcode?: unknown };
  if (typeof errcode === 'number') return SQLITE_REFUSAL_CODES.has(errcode & 0xff);
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return POSTGRES_REFUSAL_CLASSES.has(code.slice(0, 2));
  // Errors the drivers raise before sending anything (a value they cannot bind) are about the row too.
  return error instanceof TypeError || error instanceof RangeError;
}
