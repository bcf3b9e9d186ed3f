// What GET /api/auth/providers answers (src/http/routes/api-sso-routes.ts): the enabled identity providers.
import { z } from 'zod';
import { listOf } from './common-answers.ts';

export const providersAnswer = listOf(z.object({
  slug: z.string(),
  name: z.string(),
  kind: z.enum(['oidc', 'github']),
  /** Where the browser navigates to sign in with it. */
  start_url: z.string(),
}));
