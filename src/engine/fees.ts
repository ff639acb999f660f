/**
 * NIP transfer fee bands in kobo (decisions: Transfers and payouts): an engine rule, which the
 * engine charges and the command line shows before asking for confirmation (this file imports
 * nothing, so it loads alone).
 * @example nipFee(500_000) // 1_000
 */
export function nipFee(amount: number): number {
  if (amount <= 500_000) return 1_000;
  if (amount <= 5_000_000) return 2_500;
  return 5_000;
}
