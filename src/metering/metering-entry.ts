// One finished call as the metering writer takes it: its usage-log row and the charge to its owner's wallet.
import type { NewUsageLog } from '../db/schema.ts';

export interface MeteringEntry {
  log: NewUsageLog;
  /** The micro-USD to take from the owner's wallet; 0 for failed or free calls. */
  chargeMicros: number;
}
