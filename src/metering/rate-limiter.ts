// Requests-per-minute and tokens-per-minute limits, in fixed one-minute windows per key and per user.
// Two implementations: in memory (one instance) and in Redis (src/metering/redis-rate-limiter.ts).
export interface RateLimitSubject {
  /** `key:12` or `user:3`. */
  id: string;
  rpm: number | null;
  tpm: number | null;
}

export interface RateLimitVerdict {
  allowed: boolean;
  /** Which limit refused the request: 'rpm' or 'tpm'. */
  limit?: 'rpm' | 'tpm';
  subject?: string;
  /** Seconds until the window resets. */
  retryAfterSeconds?: number;
}

export interface RateLimiter {
  /** Counts one request against every subject, unless one of them is over a limit. */
  admit(subjects: RateLimitSubject[], now: number): Promise<RateLimitVerdict>;
  /** Adds the tokens a finished call used. */
  addTokens(subjects: RateLimitSubject[], tokens: number, now: number): Promise<void>;
  close(): Promise<void>;
}

export const WINDOW_MS = 60_000;

/** The verdict of every admitted call: one shared object, never changed. */
const ALLOWED: RateLimitVerdict = Object.freeze({ allowed: true });

export function windowStart(now: number): number {
  return now - (now % WINDOW_MS);
}

export function createMemoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { start: number; requests: number; tokens: number }>();
  const current = (id: string, now: number) => {
    const start = windowStart(now);
    let window = windows.get(id);
    if (!window || window.start !== start) {
      window = { start, requests: 0, tokens: 0 };
      windows.set(id, window);
    }
    return window;
  };
  // Old windows are dropped once a minute so idle keys do not accumulate.
  const sweeper = setInterval(() => {
    const start = windowStart(Date.now());
    for (const [id, window] of windows) if (window.start < start) windows.delete(id);
  }, WINDOW_MS);
  sweeper.unref();

  return {
    // Index loops, not for-of: this runs for every call, and the iterators were ~0.25 KB of its garbage.
    async admit(subjects, now) {
      for (let i = 0; i < subjects.length; i++) {
        const subject = subjects[i]!;
        if (subject.rpm === null && subject.tpm === null) continue;
        const window = current(subject.id, now);
        const retryAfterSeconds = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
        if (subject.rpm !== null && window.requests >= subject.rpm) return { allowed: false, limit: 'rpm', subject: subject.id, retryAfterSeconds };
        if (subject.tpm !== null && window.tokens >= subject.tpm) return { allowed: false, limit: 'tpm', subject: subject.id, retryAfterSeconds };
      }
      for (let i = 0; i < subjects.length; i++) {
        const subject = subjects[i]!;
        if (subject.rpm !== null || subject.tpm !== null) current(subject.id, now).requests++;
      }
      return ALLOWED;
    },
    async addTokens(subjects, tokens, now) {
      for (const subject of subjects) {
        if (subject.tpm !== null) current(subject.id, now).tokens += tokens;
      }
    },
    async close() {
      clearInterval(sweeper);
    },
  };
}
