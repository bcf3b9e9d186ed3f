// Pieces many /api answers share. An answer schema describes the JSON the client reads (after
// serialisation): timestamps are what the handler sends (epoch milliseconds as numbers, or ISO strings),
// money in the unit the field names (`_usd` numbers of dollars, `_micros` integers of micro-USD).
import { z } from 'zod';
import type { TokenPriceConfigName } from '../../../metering/price-fields.ts';

export { okAnswer } from '../../api-route.ts';

/** Integer micro-USD (money as the ledger holds it). */
export const micros = z.number().int();
/** An id of a row (positive integer). */
export const rowId = z.number().int().positive();
/** A page of a cursor-paginated list: `next_cursor` is null on the last page. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), next_cursor: z.string().nullable() });
/** A list answered whole. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/** A price in USD (per million tokens, per request, per image…). */
export const usdPrice = z.number().nonnegative();
/** Token prices in the config file's names (USD per million tokens), only those a model states. */
export const tokenPriceAnswers = {
  input_per_mtok: usdPrice.optional(),
  cached_input_per_mtok: usdPrice.optional(),
  cache_write_per_mtok: usdPrice.optional(),
  cache_write_1h_per_mtok: usdPrice.optional(),
  output_per_mtok: usdPrice.optional(),
  reasoning_per_mtok: usdPrice.optional(),
} satisfies Record<TokenPriceConfigName, z.ZodType>;
