/**
 * gw's stand-in for the audit's `src/env.ts`: with PUNISH_FOR_POOR_PLANS=1 some subgraphs refuse
 * to answer what a better plan would have fetched elsewhere (the audit reads it from `.env` too).
 */
export function shouldPunishForPoorPlans(): boolean {
  return process.env.PUNISH_FOR_POOR_PLANS === '1';
}
