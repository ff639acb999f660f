import { fileURLToPath } from 'node:url';

/** The JSON Schema of scenario files, as this package ships it. */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schema/scenario.schema.json', import.meta.url));

/**
 * The file `ledger scenario init` writes: every kind of step and most matchers, each explained,
 * and it passes as written (a test runs it). `schemaPath` is where editors find the schema, from
 * the file's own folder.
 */
export function exampleScenario(schemaPath: string): string {
  return `# yaml-language-server: $schema=${schemaPath}
#
# A ledger scenario: steps run in order against a fresh sandbox (in memory, seeded, its clock
# moving only when a step moves it), each checked against its expectations, and the ledger audit
# at the end. Run it with:
#
#   ledger scenario run <this file>            (--reporter tap|junit --output report.xml for CI)
#
# A step is a ledger command line as you would type it, without \`ledger\` (run:); an HTTP request
# (request:); advance: <duration>; snapshot: save|restore NAME; or expect_webhook: <event type>.
# \${NAME} is a variable: set under vars, or saved from a step's result with save:.
name: Ada pays Bola, and a payout to the failing account comes back
seed: 7

vars:
  SALARY: 500000

steps:
  # A command's result is its --json output, under data (and its exit code under exit).
  - run: wallets create --customer-reference ada --first-name Ada --last-name Obi --email ada@example.com
    save: { ADA: data.id }
  - run: wallets create --customer-reference bola --first-name Bola --last-name Ade --email bola@example.com
    save: { BOLA: data.id, BOLA_ACCOUNT: data.account_number }

  # A bank transfer into Ada's virtual account.
  - run: credit \${ADA} \${SALARY} --narration "Salary for May"
    expect:
      data.outcome: CREDITED
      data.transaction.balance_after: \${SALARY}

  # The same API over HTTP: the key is added for you; the result has status, data and error.
  - request: POST /v1/wallets/\${ADA}/transfer
    body: { destination_account_number: "\${BOLA_ACCOUNT}", amount: 150000, narration: Rent share }
    expect:
      status: 200
      data.status: SUCCESS
      data.new_balance: 350000

  # A value, or matchers: gt, gte, lt, lte, matches, length, exists, one_of, contains (and eq).
  - run: transactions list \${ADA}
    expect:
      data.total: 2
      data.items: { length: 2, contains: { type: DEBIT, amount: 150000 } }
      data.items[0].created_at: { matches: "^2026-01-01T" }
      data.items[1].balance_after: { gte: 0, lt: "\${SALARY}" }

  # A step that must fail, and with which error code.
  - run: transfer \${ADA} \${BOLA} 999999999
    expect_error: INSUFFICIENT_FUNDS

  # The whole sandbox, kept under a name to come back to.
  - snapshot: save paid

  # A payout to the magic account 1111111111 waits for the provider…
  - run: transfer \${ADA} 1111111111 50000 --bank 058
    expect: { data.status: PENDING }
    save: { PAYOUT: data.transaction_id }
  # …which acts once the sandbox clock passes the settlement delay (2 s): it fails the payout and
  # sends the money back. Webhooks are waited for on the sandbox clock, never in real time.
  - advance: 2s
  - expect_webhook: transfer.failed
    match: { data.transaction_id: "\${PAYOUT}" }
    expect: { data.amount: 50000, data.fee: 1000 }
  - run: wallets get \${ADA}
    expect: { data.balance: 350000 }

  - snapshot: restore paid
  - run: transactions list \${ADA}
    expect: { data.total: 2 }
`;
}
