// What an organisation's calls, statistics and shared wallet answer (src/http/routes/api-organisation-money-routes.ts).
// The readers are the personal ones (src/accounts/usage-log-reader.ts, usage-stats-reader.ts, wallet-reader.ts)
// in a member's view, so are their answers (usage-answers.ts): calls without the administrators' fields
// (user, channel, upstream model); statistics with their own scope and the sums per member.
import { z } from 'zod';
import { pageOf, rowId } from './common-answers.ts';
import { paymentAnswer } from './api-payments-answers.ts';
import { logDetailAnswer, logPageAnswer, statsAnswer, walletAnswer } from './usage-answers.ts';

export const organisationLogsAnswer = logPageAnswer;
export const organisationLogAnswer = logDetailAnswer;

/** usage-stats-reader.ts readStatsReport, with the organisation's scope and the sums per member. */
export const organisationStatsAnswer = statsAnswer.extend({
  /** organisation: every member's calls (owners and admins); member: the calls of my keys. */
  scope: z.enum(['organisation', 'member']),
  by_member: z.array(z.object({ member_user_id: rowId, requests: z.number().int().nonnegative(), errors: z.number().int().nonnegative(), cost_usd: z.number() })),
});

export const organisationWalletAnswer = walletAnswer;

export const organisationPaymentsAnswer = pageOf(paymentAnswer.pick({ id: true, amount_usd: true, refunded_usd: true, status: true, receipt_url: true, created_at: true }));
