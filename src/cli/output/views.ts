/**
 * How each resource looks to a person. Plain data, no imports: commands name a view and the
 * renderer (loaded only when something is printed for people) does the rest.
 */
export type Format =
  'text' | 'money' | 'moneyText' | 'amounts' | 'status' | 'bool' | 'type' | 'age' | 'time' | 'intelligence' | 'bank';

export interface Field {
  label: string;
  key: string;
  format?: Format;
  /** For `bool`: the words for true and false (default yes / no). */
  yes?: string;
  no?: string;
  /** A record shows the field only when this holds. */
  when?: (record: any) => boolean;
}

/** A table column: how it may give way when the terminal is narrow (see table.ts). Money is never cut. */
export interface Column extends Field {
  kind?: 'id' | 'text' | 'fixed';
  drop?: number;
  /** Kept when it says the same on every row, as ages and times are: there, the one value is the news. */
  keepConstant?: boolean;
}

/** What a list shows for an item beyond the API's fields: computed ones, and its wallet's customer. */
export interface ListExtras {
  /** Fields worked out from the item itself (a delivery's wallet, from its envelope). */
  derive?: (item: any) => Record<string, unknown>;
  /** The field holding the item's wallet id: its customer reference is looked up and shown as `customer_reference`. */
  customer?: string;
}

export type View =
  | { kind: 'record'; fields: Field[]; id: string }
  | ({
      kind: 'list';
      columns: Column[];
      id: string;
      empty: string;
      noun: string;
      /**
       * When the table would not fit the terminal whole: each item as a record instead, a title line
       * of these columns' values, then every other column's label and value (empty ones left out),
       * so long text is wrapped instead of cut. Without it the table is cut to fit.
       */
      records?: { title: string[] };
    } & ListExtras)
  /** Free-form: `lines` builds the human text; `quiet` the one value --quiet prints. */
  | { kind: 'custom'; lines: (data: any, fmt: Formatter) => string[]; quiet?: (data: any) => string; rows?: Column[] };

export interface Formatter {
  money(kobo: number): string;
  /** Amounts inside an API sentence in both units (see moneyInText). */
  moneyText(text: string, bareNumbers?: boolean): string;
  status(value: string): string;
  plural(count: number, noun: string): string;
  /** A bank code as its name and code: "Guaranty Trust Bank (058)". */
  bank(code: string): string;
  /** Columns the output may take: the terminal's width, COLUMNS for a pipe, else Infinity. */
  width: number;
  /** A line broken to fit `width`, the lines after the first indented `hang` columns (default: its own indent). */
  wrap(line: string, hang?: number): string[];
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

const isClosed = (w: { status?: string }) => w.status === 'CLOSED';

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
    {
      label: 'Transfers out',
      key: 'allow_transfers_out',
      format: 'bool',
      yes: 'allowed',
      no: 'disabled',
      when: (w) => !isClosed(w),
    },
    { label: 'Created', key: 'created_at' },
    { label: 'Closed', key: 'closed_at', when: isClosed },
  ],
};

export const walletListView: View = {
  kind: 'list',
  id: 'id',
  noun: 'wallet',
  empty: 'No wallets yet. Create one with `ledger wallets create`.',
  columns: [
    { label: 'ID', key: 'id', kind: 'id' },
    { label: 'Customer ref', key: 'customer_reference', kind: 'text', drop: 2 },
    { label: 'Account', key: 'account_number' },
    { label: 'Name', key: 'label', kind: 'text', drop: 1 },
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
    { label: 'Destination bank', key: 'destination_bank_code', format: 'bank' },
    { label: 'Destination name', key: 'destination_account_name' },
    { label: 'Fee', key: 'fee', format: 'money' },
    // How a payout's transactions link up, as the sandbox's provider holds them (`transactions get`
    // adds these for people; they are not in the API's transaction).
    { label: 'Fee charged', key: 'fee_transaction' },
    { label: 'Reversal', key: 'reversal' },
    { label: 'Reverses', key: 'reverses' },
    { label: 'Fee for', key: 'fee_for' },
    { label: 'Provider acts', key: 'provider_acts' },
    { label: 'Narration', key: 'raw_narration' },
    { label: 'Analysis', key: 'service_intelligence', format: 'intelligence' },
    { label: 'Created', key: 'created_at' },
  ],
};

export const transactionListView: View = {
  kind: 'list',
  id: 'id',
  noun: 'transaction',
  empty: 'No transactions on this wallet yet.',
  customer: 'wallet_id',
  columns: [
    { label: 'ID', key: 'id', kind: 'id' },
    { label: 'Age', key: 'created_at', format: 'age', drop: 4 },
    { label: 'Type', key: 'type', format: 'type' },
    { label: 'Amount', key: 'amount', format: 'money' },
    { label: 'Balance after', key: 'balance_after', format: 'money', drop: 1 },
    { label: 'Status', key: 'status', format: 'status' },
    { label: 'Customer', key: 'customer_reference', kind: 'text', drop: 3 },
    { label: 'Narration', key: 'raw_narration', kind: 'text', drop: 2 },
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

export const resolvedAccountView: View = {
  kind: 'record',
  id: 'account_name',
  fields: [
    { label: 'Account number', key: 'account_number' },
    { label: 'Account name', key: 'account_name' },
  ],
};

export const suspenseListView: View = {
  kind: 'list',
  id: 'id',
  noun: 'suspense item',
  empty: 'No suspense items match.',
  customer: 'wallet_id',
  columns: [
    { label: 'ID', key: 'id', kind: 'id' },
    { label: 'Age', key: 'created_at', format: 'age', drop: 5 },
    { label: 'Amount', key: 'amount', format: 'money' },
    { label: 'Customer', key: 'customer_reference', kind: 'text', drop: 4 },
    { label: 'Reason', key: 'reason', drop: 3 },
    { label: 'Status', key: 'status', format: 'status' },
    { label: 'Sender', key: 'sender_name', kind: 'text', drop: 1 },
    { label: 'Narration', key: 'raw_narration', kind: 'text', drop: 2 },
  ],
};

export const resolutionView: View = {
  kind: 'record',
  id: 'action',
  fields: [
    { label: 'Action', key: 'action' },
    { label: 'Result', key: 'message', format: 'moneyText' },
    { label: 'Transaction', key: 'transaction_id' },
    { label: 'Reference', key: 'provider_reference' },
  ],
};

export const webhookListView: View = {
  kind: 'list',
  id: 'id',
  noun: 'delivery',
  empty: 'No webhook deliveries match.',
  derive: (log: {
    status: string;
    payload?: { data?: { wallet_id?: unknown } };
    http_status_code: number | null;
    response_body: string | null;
  }) => ({
    wallet_id: typeof log.payload?.data?.wallet_id === 'string' ? log.payload.data.wallet_id : null,
    last_error: lastError(log),
  }),
  customer: 'wallet_id',
  columns: [
    { label: 'ID', key: 'id', kind: 'id' },
    { label: 'Age', key: 'created_at', format: 'age', drop: 4 },
    { label: 'Event', key: 'event_type' },
    { label: 'Status', key: 'status', format: 'status' },
    { label: 'Tries', key: 'attempt_count' },
    { label: 'Wallet', key: 'wallet_id', kind: 'id', drop: 3 },
    { label: 'Customer', key: 'customer_reference', kind: 'text', drop: 2 },
    // Deliveries failing alike (an endpoint down) share one error: the reason they fail, not noise.
    { label: 'Last error', key: 'last_error', kind: 'text', drop: 5, keepConstant: true },
    { label: 'Next retry', key: 'next_retry_at', format: 'time', drop: 1 },
  ],
};

/** A failed attempt in short: its HTTP status and the start of the answer, or why there was none ("ECONNREFUSED"). */
function lastError(log: {
  status: string;
  http_status_code: number | null;
  response_body: string | null;
}): string | null {
  if (log.status === 'DELIVERED' || (log.http_status_code === null && !log.response_body)) return null;
  return [log.http_status_code, log.response_body?.replace(/\s+/g, ' ').trim()]
    .filter((part) => part !== null && part !== undefined && part !== '')
    .join(' ');
}

export const endpointView: View = {
  kind: 'record',
  id: 'url',
  fields: [
    { label: 'URL', key: 'url' },
    { label: 'Built-in receiver', key: 'built_in', format: 'bool' },
    { label: 'Secret', key: 'secret' },
    { label: 'Old secret until', key: 'previous_secret_valid_until' },
  ],
};

export const receiverEventsView: View = {
  kind: 'list',
  id: 'id',
  noun: 'delivery',
  empty: 'The built-in receiver has received nothing yet.',
  columns: [
    { label: 'Received', key: 'created_at', format: 'time' },
    // At 80 columns the ids, cut to their unique prefix, still left no room: the last resort cut
    // the time to "2026-11-24 08:1…". The id goes first (--wide or --json has it).
    { label: 'Webhook id', key: 'webhook_id', kind: 'id', drop: 1 },
    { label: 'Event', key: 'event_type' },
    { label: 'Signature', key: 'signature_valid', format: 'bool', yes: 'valid', no: 'INVALID' },
    { label: 'Answered', key: 'response_status' },
  ],
};

export const agentView: View = {
  kind: 'record',
  id: 'id',
  fields: [
    { label: 'Agent', key: 'id' },
    { label: 'Name', key: 'name' },
    { label: 'Wallet', key: 'wallet_id' },
    { label: 'Trigger', key: 'trigger' },
    { label: 'Threshold', key: 'threshold', format: 'money' },
    { label: 'Action', key: 'action' },
    { label: 'Destination', key: 'destination_wallet_id' },
    { label: 'Sweep amount', key: 'sweep_amount', format: 'money' },
    { label: 'Active', key: 'is_active', format: 'bool' },
    { label: 'Fired', key: 'trigger_count' },
    { label: 'Last fired', key: 'last_triggered_at' },
  ],
};

export const agentListView: View = {
  kind: 'list',
  id: 'id',
  noun: 'agent',
  empty: 'No agents. Create one with `ledger agents create <wallet_id>`.',
  customer: 'wallet_id',
  columns: [
    { label: 'ID', key: 'id', kind: 'id' },
    { label: 'Name', key: 'name', kind: 'text' },
    { label: 'Wallet', key: 'wallet_id', kind: 'id', drop: 2 },
    { label: 'Customer', key: 'customer_reference', kind: 'text', drop: 4 },
    { label: 'Trigger', key: 'trigger' },
    { label: 'Threshold', key: 'threshold', format: 'money', drop: 3 },
    { label: 'Action', key: 'action' },
    { label: 'Active', key: 'is_active', format: 'bool' },
    { label: 'Fired', key: 'trigger_count', drop: 1 },
  ],
};

export const agentRunsView: View = {
  kind: 'list',
  id: 'id',
  noun: 'run',
  empty: 'This agent has not fired yet.',
  // Why it fired and what it did are the point: at 80 columns a table cut them to 20 characters.
  records: { title: ['created_at', 'outcome'] },
  columns: [
    { label: 'When', key: 'created_at', format: 'time', drop: 3 },
    { label: 'Outcome', key: 'outcome', format: 'status' },
    { label: 'Why', key: 'reason', format: 'amounts', kind: 'text' },
    { label: 'What it did', key: 'effect', format: 'amounts', kind: 'text' },
    { label: 'Transaction', key: 'transaction_id', kind: 'id', drop: 2 },
    { label: 'Error', key: 'error', format: 'amounts', kind: 'text', drop: 4 },
    { label: 'Hop', key: 'hop', drop: 1 },
  ],
};

export const bankListView: View = {
  kind: 'custom',
  rows: [
    { label: 'Code', key: 'code' },
    { label: 'Name', key: 'name' },
  ],
  quiet: (d: { items: { code: string }[] }) => d.items.map((b) => b.code).join('\n'),
  lines: (d: { items: { code: string; name: string }[] }, fmt) =>
    d.items.length === 0
      ? [fmt.dim('No bank matches.')]
      : d.items.map((b) => `${b.code.padEnd(7)} ${b.name}`).concat(fmt.dim(fmt.plural(d.items.length, 'bank'))),
};

export const magicView: View = {
  kind: 'custom',
  quiet: (d: { items: { account_number: string }[] }) =>
    d.items
      .map((m) => m.account_number)
      .filter((n) => /^\d+$/.test(n))
      .join('\n'),
  lines: (d: { items: { account_number: string; name_enquiry: string; payout: string }[] }, fmt) =>
    d.items.flatMap((m) => [
      fmt.bold(m.account_number),
      ...fmt.wrap(`  ${fmt.dim('name enquiry')}  ${m.name_enquiry}`, 16),
      ...fmt.wrap(`  ${fmt.dim('payout      ')}  ${m.payout}`, 16),
    ]),
};

/** A value as indented JSON, each line continued two columns in from its own indent when it is too wide. */
function jsonLines(value: unknown, fmt: Formatter): string[] {
  return JSON.stringify(value, null, 2)
    .split('\n')
    .flatMap((line) => fmt.wrap(`  ${line}`, 4 + /^ */.exec(line)![0].length));
}

interface SuspenseShown {
  id: string;
  status: string;
  reason: string;
  amount: number;
  account_number: string;
  sender_name: string;
  sender_account: string;
  sender_bank_code: string;
  raw_narration: string;
  provider_reference: string;
  created_at: string;
  resolved_at: string | null;
  resolution_action: string | null;
  resolution_note: string | null;
  raw_payload: unknown;
  service_intelligence: {
    extracted_intent: string;
    suggested_label: string;
    confidence_score: number;
    flags: string[];
    explanation?: string[];
  } | null;
  /** A sandbox's extension: absent from a server without it. */
  notes?: NoteShown[];
}

interface NoteShown {
  note: string;
  kind: string;
  created_at: string;
  author: { developer_id: string; business_name: string };
}

/** A labelled line of a record; a value too long for the line (a company's name as the sender) continues under itself. */
const labelled = (fmt: Formatter) => (label: string, value: string) =>
  fmt.wrap(`${fmt.dim(label.padEnd(14))}  ${value}`, 16).join('\n');

/** A note as one line: when, who, and what (a flag says so). */
const noteLine = (n: NoteShown) =>
  `${n.created_at} · ${n.author.business_name || n.author.developer_id} · ${n.kind === 'FLAG' ? 'flagged: ' : ''}"${n.note}"`;

export const suspenseItemView: View = {
  kind: 'custom',
  quiet: (item: SuspenseShown) => item.id,
  lines: (item: SuspenseShown, fmt) => {
    const row = labelled(fmt);
    const ai = item.service_intelligence;
    return [
      row('Suspense item', item.id),
      row('Status', fmt.status(item.status)),
      row('Reason', item.reason),
      row('Amount', fmt.money(item.amount)),
      row('To account', item.account_number),
      row(
        'Sender',
        `${item.sender_name}` +
          (item.sender_account
            ? ` · ${item.sender_account} · ${fmt.bank(item.sender_bank_code)}`
            : fmt.dim(' (no sender account: it cannot be refunded)')),
      ),
      row('Narration', item.raw_narration || fmt.dim('(empty)')),
      row('Reference', item.provider_reference),
      row('Received', item.created_at),
      ...(item.resolved_at
        ? [
            row(
              'Resolved',
              `${item.resolved_at} · ${item.resolution_action ?? ''}${item.resolution_note ? ` · "${item.resolution_note}"` : ''}`,
            ),
          ]
        : []),
      ...(item.notes ?? []).map((n, i) => row(i === 0 ? 'Notes' : '', noteLine(n))),
      ...(ai
        ? [
            row(
              'Analysis',
              `${ai.extracted_intent} (${ai.suggested_label}), confidence ${ai.confidence_score}${ai.flags.length ? `, flags ${ai.flags.join(', ')}` : ''}`,
            ),
            ...(ai.explanation ?? []).map((line) => row('', fmt.dim(`· ${fmt.moneyText(line)}`))),
          ]
        : []),
      fmt.dim('Raw payload'),
      ...jsonLines(item.raw_payload, fmt),
    ];
  },
};

/** What a flag or a note left: the item's status and the note just added. */
export const suspenseNotedView: View = {
  kind: 'custom',
  quiet: (item: SuspenseShown) => item.id,
  lines: (item: SuspenseShown, fmt) => {
    const row = labelled(fmt);
    const notes = item.notes ?? [];
    return [
      row('Suspense item', item.id),
      row('Status', fmt.status(item.status)),
      row('Amount', fmt.money(item.amount)),
      ...(notes.length > 0
        ? [
            row('Note', noteLine(notes.at(-1)!)),
            row('Notes', `${fmt.plural(notes.length, 'note')} in all; \`ledger suspense show\` lists them`),
          ]
        : []),
    ];
  },
};

interface LogShown {
  log: {
    id: string;
    event_id: string;
    event_type: string;
    status: string;
    attempt_count: number;
    next_retry_at: string | null;
    delivered_at: string | null;
    payload: unknown;
  };
  attempts?: {
    attempt_number: number;
    manual: boolean;
    created_at: string;
    url: string;
    http_status_code: number | null;
    error: string | null;
    duration_ms: number;
    response_body: string | null;
  }[];
}

export const webhookShowView: View = {
  kind: 'custom',
  quiet: (d: LogShown) => d.log.id,
  lines: ({ log, attempts }: LogShown, fmt) => [
    `${fmt.dim('Delivery  ')} ${log.id}`,
    `${fmt.dim('Event     ')} ${log.event_type} · ${log.event_id}`,
    `${fmt.dim('Status    ')} ${fmt.status(log.status)} after ${fmt.plural(log.attempt_count, 'attempt')}` +
      (log.next_retry_at ? ` · next retry ${log.next_retry_at}` : '') +
      (log.delivered_at ? ` · delivered ${log.delivered_at}` : ''),
    fmt.dim('Envelope'),
    ...jsonLines(log.payload, fmt),
    // A service without the sandbox's attempt log shows the delivery alone.
    ...(attempts ? [fmt.dim(`Attempts (${attempts.length})`)] : []),
    ...(attempts ?? []).flatMap((a) => {
      // An attempt whose outcome was never recorded (the sandbox stopped while it was out) took no time anyone measured.
      const interrupted = a.http_status_code === null && a.error?.startsWith('interrupted:') === true;
      const head =
        `  #${a.attempt_number} ${a.created_at}${a.manual ? ' (manual)' : ''} → ` +
        `${a.http_status_code ?? fmt.red(a.error ?? 'no answer')}${interrupted ? '' : ` in ${a.duration_ms} ms`}`;
      // The URL on the attempt's line when it fits, else on a line of its own, whole where it can be.
      const url =
        fmt.wrap(`${head} · ${a.url}`).length === 1
          ? [`${head} · ${a.url}`]
          : [...fmt.wrap(head, 5), ...fmt.wrap(`     ${a.url}`)];
      return [
        ...url,
        ...(a.response_body ? fmt.wrap(`     ${fmt.dim(a.response_body.replace(/\s+/g, ' ').slice(0, 200))}`) : []),
      ];
    }),
  ],
};

/** The request log (decisions: Request log): what a developer's calls were answered with. */
export const requestLogListView: View = {
  kind: 'list',
  id: 'id',
  noun: 'request',
  empty: 'No requests match.',
  columns: [
    { label: 'Time', key: 'at', format: 'time' },
    { label: 'Method', key: 'method' },
    { label: 'Path', key: 'path', kind: 'text' },
    { label: 'Status', key: 'status' },
    { label: 'Code', key: 'code', drop: 2 },
    { label: 'ms', key: 'duration_ms', drop: 1 },
    { label: 'Request', key: 'id' },
  ],
};

export const requestLogView: View = {
  kind: 'record',
  id: 'id',
  fields: [
    { label: 'Request', key: 'id' },
    { label: 'Time', key: 'at', format: 'time' },
    { label: 'Real time', key: 'real_at', format: 'time' },
    { label: 'Method', key: 'method' },
    { label: 'Path', key: 'path' },
    { label: 'Status', key: 'status' },
    { label: 'Code', key: 'code', when: (r: { code: string | null }) => r.code !== null },
    { label: 'Duration (ms)', key: 'duration_ms' },
    {
      label: 'Idempotency-Key',
      key: 'idempotency_key',
      when: (r: { idempotency_key: string | null }) => r.idempotency_key !== null,
    },
    { label: 'Replayed', key: 'replayed', format: 'bool' },
    { label: 'Source', key: 'source' },
    {
      label: 'Request body',
      key: 'request_body',
      when: (r: { request_body: string | null }) => r.request_body !== null,
    },
  ],
};
