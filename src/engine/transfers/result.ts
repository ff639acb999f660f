/** What a transfer answers (internal or a payout); its own file, so payouts can name it without importing transfers. */
export interface TransferResult {
  status: 'SUCCESS' | 'PENDING' | 'FAILED';
  transaction_id: string;
  provider_reference: string;
  new_balance: number;
  currency: 'NGN';
  fee: number;
}
