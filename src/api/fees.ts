/**
 * NIP transfer fee bands in kobo (contract §6). Shared by the engine, which charges it, and the
 * command line, which shows it before asking for confirmation: one table, no dependencies.
 * @example nipFee(500_000) // 1_000
 */
export function nipFee(amount: number): number {
  if (amount <= 500_000) return 1_000;
  if (amount <= 5_000_000) return 2_500;
  return 5_000;
}
