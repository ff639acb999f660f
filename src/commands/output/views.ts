/**
 * How each resource looks to a person. Plain data, no imports: commands name a view and the
 * renderer (loaded only when something is printed) does the rest.
 */
export type Format = 'text' | 'money' | 'status' | 'bool' | 'type';

export interface Field {
  label: string;
  key: string;
  format?: Format;
}

export type View =
  | { kind: 'record'; fields: Field[]; id: string }
  | { kind: 'list'; columns: Field[]; id: string; empty: string }
  /** Free-form: `lines` builds the human text; `quiet` the one value --quiet prints. */
  | { kind: 'custom'; lines: (data: any, fmt: Formatter) => string[]; quiet?: (data: any) => string };

export interface Formatter {
  money(kobo: number): string;
  status(value: string): string;
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

export const walletView: View = {
  kind: 'record',
  id: 'id',
  fields: [
    { label: 'Wallet', key: 'id' },
    { label: 'Status', key: 'status', format: 'status' },
    { label: 'Balance', key: 'balance', format: 'money' },
    { label: 'Account number', key: 'account_number' },
    { label: 'Bank', key: 'bank_name' },
    { label: 'Account name', key: 'account_name' },
    { label: 'Customer ref', key: 'customer_reference' },
    { label: 'Name', key: 'label' },
    { label: 'Email', key: 'email' },
    { label: 'Transfers out', key: 'allow_transfers_out', format: 'bool' },
    { label: 'Created', key: 'created_at' },
  ],
};

export const walletListView: View = {
  kind: 'list',
  id: 'id',
  empty: 'No wallets yet. Create one with `ledger wallets create`.',
  columns: [
    { label: 'ID', key: 'id' },
    { label: 'Customer ref', key: 'customer_reference' },
    { label: 'Account', key: 'account_number' },
    { label: 'Name', key: 'label' },
    { label: 'Balance', key: 'balance', format: 'money' },
    { label: 'Status', key: 'status', format: 'status' },
  ],
};

export const transactionView: View = {
  kind: 'record',
  id: 'id',
  fields: [
    { label: 'Transaction', key: 'id' },
    { label: 'Type', key: 'type', format: 'type' },
    { label: 'Status', key: 'status', format: 'status' },
    { label: 'Amount', key: 'amount', format: 'money' },
    { label: 'Balance before', key: 'balance_before', format: 'money' },
    { label: 'Balance after', key: 'balance_after', format: 'money' },
    { label: 'Wallet', key: 'wallet_id' },
    { label: 'Reference', key: 'provider_reference' },
    { label: 'Sender', key: 'sender_name' },
    { label: 'Sender account', key: 'sender_account' },
    { label: 'Destination', key: 'destination_account_number' },
    { label: 'Destination name', key: 'destination_account_name' },
    { label: 'Fee', key: 'fee', format: 'money' },
    { label: 'Narration', key: 'raw_narration' },
    { label: 'Created', key: 'created_at' },
  ],
};

export const transactionListView: View = {
  kind: 'list',
  id: 'id',
  empty: 'No transactions on this wallet yet.',
  columns: [
    { label: 'ID', key: 'id' },
    { label: 'Time', key: 'created_at' },
    { label: 'Type', key: 'type', format: 'type' },
    { label: 'Amount', key: 'amount', format: 'money' },
    { label: 'Balance after', key: 'balance_after', format: 'money' },
    { label: 'Status', key: 'status', format: 'status' },
    { label: 'Narration', key: 'raw_narration' },
  ],
};

export const transferView: View = {
  kind: 'record',
  id: 'transaction_id',
  fields: [
    { label: 'Status', key: 'status', format: 'status' },
    { label: 'Transaction', key: 'transaction_id' },
    { label: 'Reference', key: 'provider_reference' },
    { label: 'Fee', key: 'fee', format: 'money' },
    { label: 'New balance', key: 'new_balance', format: 'money' },
  ],
};

/** A developer and a key: `sandbox keys`, `keys rotate` and `developers create` (absent fields are skipped). */
export const credentialView = {
  kind: 'record',
  id: 'api_key',
  fields: [
    { label: 'Developer', key: 'developer_id' },
    { label: 'Business name', key: 'business_name' },
    { label: 'API key', key: 'api_key' },
    { label: 'Issued', key: 'created_at' },
  ],
} satisfies View;

export const bankListView: View = {
  kind: 'custom',
  quiet: (d: { items: { code: string }[] }) => d.items.map((b) => b.code).join('\n'),
  lines: (d: { items: { code: string; name: string }[] }, fmt) =>
    d.items.length === 0
      ? [fmt.dim('No bank matches.')]
      : d.items.map((b) => `${b.code.padEnd(7)} ${b.name}`).concat(fmt.dim(`${d.items.length} banks`)),
};

export const resolvedAccountView: View = {
  kind: 'record',
  id: 'account_name',
  fields: [
    { label: 'Account number', key: 'account_number' },
    { label: 'Account name', key: 'account_name' },
  ],
};

export const magicView: View = {
  kind: 'custom',
  quiet: (d: { items: { account_number: string }[] }) => d.items.map((m) => m.account_number).filter((n) => /^\d+$/.test(n)).join('\n'),
  lines: (d: { items: { account_number: string; name_enquiry: string; payout: string }[] }, fmt) =>
    d.items.flatMap((m) => [fmt.bold(m.account_number), `  ${fmt.dim('name enquiry')}  ${m.name_enquiry}`, `  ${fmt.dim('payout      ')}  ${m.payout}`]),
};
