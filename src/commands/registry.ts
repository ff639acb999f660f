import type { Command } from '../cli/command.js';

/**
 * Every command, as plain data: its path, what `--help` lists it as, and how to load its builder.
 * Only the invoked command's module is ever imported (as changesets' cli does); a group's listing and
 * `ledger --help` are built from this list alone. A command's builder adds its own flags, arguments
 * and examples; its description comes from here.
 */
export interface CommandEntry {
  /** Space-separated path below `ledger`: `wallets get`. */
  path: string;
  description: string;
  /** Loads the builder of a command that runs; a pure group has none. */
  load?: () => Promise<() => Command>;
  /** A group's own `--help` examples. */
  examples?: string[];
}

export const COMMANDS: CommandEntry[] = [
  {
    path: 'sandbox',
    description: 'Run and control the local sandbox',
    examples: [
      'ledger sandbox start --detach',
      'ledger sandbox status',
      'ledger sandbox analyse "sch fees"',
      'ledger sandbox audit',
      'ledger sandbox stop',
    ],
  },
  {
    path: 'sandbox start',
    description: 'Run the sandbox: the whole /v1 API on a local SQLite file, with a simulated provider',
    load: () => import('./sandbox/start.js').then((m) => m.startCommand),
  },
  {
    path: 'sandbox stop',
    description: 'Stop the background sandbox started from this directory (a no-op when none runs)',
    load: () => import('./sandbox/lifecycle.js').then((m) => m.stopCommand),
  },
  {
    path: 'sandbox status',
    description: 'Is the sandbox up? Exit code 3 when it is not reachable',
    load: () => import('./sandbox/lifecycle.js').then((m) => m.statusCommand),
  },
  {
    path: 'sandbox env',
    description: 'Print LEDGER_BASE_URL and LEDGER_API_KEY as shell exports, for eval in another shell',
    load: () => import('./sandbox/lifecycle.js').then((m) => m.envCommand),
  },
  {
    path: 'sandbox reset',
    description:
      "Delete your wallets, transactions, suspense items, agents and webhooks; your account, keys and clock stay, and other developers' data is untouched",
    load: () => import('./sandbox/reset.js').then((m) => m.resetCommand),
  },
  {
    path: 'sandbox audit',
    description:
      'Check every money invariant of your books (balanced entries, balances, chains, outbox); exit 1 on any problem',
    load: () => import('./sandbox/audit.js').then((m) => m.auditCommand),
  },
  {
    path: 'sandbox keys',
    description: 'Show the developer and key in use; `keys rotate` issues a new one',
    load: () => import('./sandbox/keys.js').then((m) => m.keysCommand),
  },
  {
    path: 'sandbox keys rotate',
    description:
      'Issue a new key; the old one fails at once. The sandbox state file is updated when the key came from it',
    load: () => import('./sandbox/keys-rotate.js').then((m) => m.rotateCommand),
  },
  {
    path: 'sandbox clock',
    description:
      'Show your virtual clock (each developer has its own); `clock advance` moves it forward and runs whatever of yours falls due',
    load: () => import('./sandbox/clock.js').then((m) => m.clockCommand),
  },
  {
    path: 'sandbox clock advance',
    description:
      'Move your sandbox clock forward by a duration (90, 90s, 5m, 2h or 1d); what falls due on the way runs at its own time, in order',
    load: () => import('./sandbox/clock-advance.js').then((m) => m.advanceCommand),
  },
  {
    path: 'sandbox analyse',
    description: 'Show how the sandbox reads a narration, and whether a payment with it would be held; no money moves',
    load: () => import('./sandbox/analyse.js').then((m) => m.analyseCommand),
  },
  {
    path: 'sandbox snapshot',
    description:
      'Save the whole sandbox and put it back: named snapshots in .ledger/snapshots, or files anywhere (--file)',
    examples: [
      'ledger sandbox snapshot save base',
      'ledger sandbox snapshot restore base',
      'ledger sandbox start --snapshot base',
    ],
  },
  {
    path: 'sandbox snapshot save',
    description:
      'Save the whole sandbox (every developer) as a named snapshot, or to a file with --file; consistent while requests run',
    load: () => import('./sandbox/snapshot.js').then((m) => m.saveCommand),
  },
  {
    path: 'sandbox snapshot restore',
    description:
      'Put the whole sandbox back as a snapshot holds it; keys in use keep working (asks first on a terminal)',
    load: () => import('./sandbox/snapshot.js').then((m) => m.restoreCommand),
  },
  {
    path: 'sandbox snapshot list',
    description: 'The named snapshots, by name, with their size and when they were saved (sandbox clock)',
    load: () => import('./sandbox/snapshot.js').then((m) => m.listCommand),
  },
  {
    path: 'sandbox snapshot delete',
    description: 'Delete a named snapshot',
    load: () => import('./sandbox/snapshot.js').then((m) => m.deleteCommand),
  },
  {
    path: 'sandbox open',
    description:
      'Print a one-time login link to the dashboard the sandbox serves, and open it in a browser where there is a desktop',
    load: () => import('./sandbox/open.js').then((m) => m.openCommand),
  },
  {
    path: 'sandbox magic',
    description: 'The magic external account numbers and what the simulated provider does with each',
    load: () => import('./sandbox/magic.js').then((m) => m.magicCommand),
  },
  {
    path: 'sandbox payouts',
    description: 'Settle or fail a PENDING payout by hand (for 2222222222, or before the delay is up)',
    examples: ['ledger sandbox payouts settle "$TX"', 'ledger sandbox payouts fail "$TX" --json'],
  },
  {
    path: 'sandbox payouts settle',
    description: 'Settle a PENDING payout now (transfer.completed)',
    load: () => import('./sandbox/payouts.js').then((m) => m.settleCommand),
  },
  {
    path: 'sandbox payouts fail',
    description: 'Fail a PENDING payout now: FAILED, and a reversal of amount + fee (transfer.failed)',
    load: () => import('./sandbox/payouts.js').then((m) => m.failCommand),
  },
  {
    path: 'sandbox receiver',
    description: "The sandbox's built-in webhook receiver: what it got, and failures to inject",
    examples: [
      'ledger sandbox receiver fail --status 500 --times 3',
      'ledger sandbox receiver events',
      'ledger sandbox receiver reset',
    ],
  },
  {
    path: 'sandbox receiver fail',
    description: 'Answer the next deliveries with an error status',
    load: () => import('./sandbox/receiver.js').then((m) => m.failCommand),
  },
  {
    path: 'sandbox receiver reset',
    description: 'Stop injecting failures: answer 200 again',
    load: () => import('./sandbox/receiver.js').then((m) => m.resetCommand),
  },
  {
    path: 'sandbox receiver events',
    description: 'What the built-in receiver got, and whether each signature verified',
    load: () => import('./sandbox/receiver-events.js').then((m) => m.eventsCommand),
  },
  {
    path: 'sandbox developers',
    description: 'Other developer accounts in the same sandbox, for isolation tests',
    examples: ['ledger sandbox developers create "Acme Pay"'],
  },
  {
    path: 'sandbox developers create',
    description: 'Create a developer account and print its id and key',
    load: () => import('./sandbox/developers-create.js').then((m) => m.developersCreateCommand),
  },

  {
    path: 'wallets',
    description: 'Create, inspect, close and unlock wallets',
    examples: [
      'ledger wallets create --customer-reference u1 --first-name Ada --last-name Obi --email ada@example.com',
      'ledger wallets list',
    ],
  },
  {
    path: 'wallets create',
    description: 'Create a wallet with a virtual NUBAN (asks for missing details on a terminal)',
    load: () => import('./wallets/create.js').then((m) => m.createCommand),
  },
  {
    path: 'wallets get',
    description: 'Show a wallet and its balance',
    load: () => import('./wallets/get.js').then((m) => m.getCommand),
  },
  {
    path: 'wallets list',
    description: 'List your wallets (sandbox only: the interface document has no list endpoint)',
    load: () => import('./wallets/list.js').then((m) => m.listCommand),
  },
  {
    path: 'wallets close',
    description:
      'Close a wallet; its balance stays, and later inbound payments go to suspense (asks first on a terminal)',
    load: () => import('./wallets/close.js').then((m) => m.closeCommand),
  },
  {
    path: 'wallets unlock',
    description: 'Allow transfers out again (undoes LOCK_WALLET or --no-transfers-out); --lock does the opposite',
    load: () => import('./wallets/unlock.js').then((m) => m.unlockCommand),
  },

  {
    path: 'find',
    description:
      'Find wallets, transactions, suspense items, deliveries and agents by id or its start, provider reference, account number, name or narration words',
    load: () => import('./find.js').then((m) => m.findCommand),
  },

  {
    path: 'credit',
    description: 'Simulate a bank transfer into a virtual account (the provider notifying the sandbox)',
    load: () => import('./credit.js').then((m) => m.creditCommand),
  },
  {
    path: 'transfer',
    description:
      'Send money to another of your wallets (instant, no fee) or to a bank account (--bank: ' +
      'NIP fee, PENDING until the provider acts; a terminal shows the name and fee and asks first)',
    load: () => import('./transfer.js').then((m) => m.transferCommand),
  },

  {
    path: 'report',
    description:
      'One screen for a period (default: today in Lagos): transactions, money in and out, suspense, webhook deliveries',
    load: () => import('./report.js').then((m) => m.reportCommand),
  },

  {
    path: 'transactions',
    description: 'Inspect ledger transactions',
    examples: ['ledger transactions list "$WALLET"', 'ledger transactions get "$TX" --json'],
  },
  {
    path: 'transactions list',
    description: 'List the ledger transactions of a wallet, or of every wallet of yours, oldest first',
    load: () => import('./transactions/list.js').then((m) => m.listCommand),
  },
  {
    path: 'transactions get',
    description: 'Show one transaction, including service_intelligence',
    load: () => import('./transactions/get.js').then((m) => m.getCommand),
  },

  {
    path: 'agents',
    description: 'Trigger-action rules on wallets: sweeps, locks and notifications',
    examples: ['ledger agents create "$W"', 'ledger agents list --wallet "$W"', 'ledger agents runs "$AGENT"'],
  },
  {
    path: 'agents create',
    description: 'Attach an agent to a wallet; on a terminal, missing choices are asked, and only the fields they need',
    load: () => import('./agents/create.js').then((m) => m.createCommand),
  },
  {
    path: 'agents toggle',
    description: 'Enable (--on) or disable (--off) an agent',
    load: () => import('./agents/toggle.js').then((m) => m.toggleCommand),
  },
  {
    path: 'agents list',
    description: 'List agents, across wallets or on one',
    load: () => import('./agents/list.js').then((m) => m.listCommand),
  },
  {
    path: 'agents runs',
    description: 'The trace of an agent: each firing, why, what it did, and the transaction or error',
    load: () => import('./agents/runs.js').then((m) => m.runsCommand),
  },

  {
    path: 'suspense',
    description: 'The suspense queue: payments held for a person to resolve',
    examples: ['ledger suspense list --status PENDING', 'ledger suspense resolve'],
  },
  {
    path: 'suspense list',
    description: 'List held payments, oldest first, with their amount and age',
    load: () => import('./suspense/list.js').then((m) => m.listCommand),
  },
  {
    path: 'suspense show',
    description: 'Show one held payment in full: the analysis and the original payload',
    load: () => import('./suspense/show.js').then((m) => m.showCommand),
  },
  {
    path: 'suspense resolve',
    description:
      'Resolve a held payment. On a terminal, anything left out is asked: pick the item, the action and the target wallet',
    load: () => import('./suspense/resolve.js').then((m) => m.resolveCommand),
  },
  {
    path: 'suspense flag',
    description: 'Escalate a held payment with a note: PENDING becomes FLAGGED (an extension of the sandbox)',
    load: () => import('./suspense/flag.js').then((m) => m.flagCommand),
  },
  {
    path: 'suspense note',
    description: 'Add a note to a held payment without resolving it (an extension of the sandbox)',
    load: () => import('./suspense/note.js').then((m) => m.noteCommand),
  },

  {
    path: 'logs',
    description: "The sandbox's request log: every API call of yours, its status, error code and request id",
    examples: ['ledger logs list --status 4xx', 'ledger logs tail --path /v1/wallets', 'ledger logs show req_00000042'],
  },
  {
    path: 'logs list',
    description: 'List your requests, newest first (--status 422 or 4xx, --path, --since, --idempotency-key)',
    load: () => import('./logs/list.js').then((m) => m.listCommand),
  },
  {
    path: 'logs tail',
    description: 'Follow your requests live until Ctrl-C; with --json one log entry per line',
    load: () => import('./logs/tail.js').then((m) => m.tailCommand),
  },
  {
    path: 'logs show',
    description: 'One request in full by its id, a failure’s body (secrets removed) included',
    load: () => import('./logs/show.js').then((m) => m.showCommand),
  },
  {
    path: 'webhooks',
    description: 'Outbound webhooks: deliveries, retries, the endpoint and its signing secret',
    examples: [
      'ledger webhooks list --status FAILED',
      'ledger webhooks tail',
      'ledger webhooks endpoint set http://127.0.0.1:3000/hooks',
    ],
  },
  {
    path: 'webhooks list',
    description: 'List deliveries, oldest first',
    load: () => import('./webhooks/list.js').then((m) => m.listCommand),
  },
  {
    path: 'webhooks show',
    description: 'One delivery: the envelope, every attempt and the response bodies',
    load: () => import('./webhooks/show.js').then((m) => m.showCommand),
  },
  {
    path: 'webhooks retry',
    description: 'Retry a FAILED or DEAD delivery now; --all-failed retries every FAILED and DEAD one',
    load: () => import('./webhooks/retry.js').then((m) => m.retryCommand),
  },
  {
    path: 'webhooks tail',
    description: 'Follow delivery attempts live until Ctrl-C; with --json one webhook log per line',
    load: () => import('./webhooks/tail.js').then((m) => m.tailCommand),
  },
  {
    path: 'webhooks secret',
    description: 'Print the whsec_ signing secret; `secret rotate` issues a new one (the old one signs too for 24 h)',
    load: () => import('./webhooks/secret.js').then((m) => m.secretCommand),
  },
  {
    path: 'webhooks secret rotate',
    description: 'Issue a new signing secret; deliveries carry both signatures for 24 h of sandbox time',
    load: () => import('./webhooks/secret.js').then((m) => m.rotateCommand),
  },
  {
    path: 'webhooks endpoint',
    description: 'Show where deliveries go; `endpoint set <url>` and `endpoint reset` change it',
    load: () => import('./webhooks/endpoint.js').then((m) => m.endpointCommand),
  },
  {
    path: 'webhooks endpoint set',
    description: 'Deliver to this URL from now on (pending deliveries included)',
    load: () => import('./webhooks/endpoint.js').then((m) => m.setCommand),
  },
  {
    path: 'webhooks endpoint reset',
    description: "Deliver to the sandbox's built-in receiver again",
    load: () => import('./webhooks/endpoint.js').then((m) => m.resetCommand),
  },

  {
    path: 'banks',
    description: 'Banks for outbound transfers, and name enquiry',
    examples: ['ledger banks list --search gt', 'ledger banks resolve 0123456785 058'],
  },
  {
    path: 'banks list',
    description: 'List the banks you can send to, with their codes',
    load: () => import('./banks/list.js').then((m) => m.listCommand),
  },
  {
    path: 'banks resolve',
    description: 'Name enquiry: the account name behind an account number at a bank',
    load: () => import('./banks/resolve.js').then((m) => m.resolveCommand),
  },

  {
    path: 'scenario',
    description: 'Whole test scenarios in one file: steps, assertions, webhooks and the audit, run in this process',
    examples: [
      'ledger scenario init',
      'ledger scenario run examples/scenarios',
      'ledger scenario run test/scenarios --reporter junit --output report.xml',
    ],
  },
  {
    path: 'scenario run',
    description:
      'Run scenario files (YAML or JSON), each scenario on a fresh seeded sandbox in this process, and report (pretty, TAP or JUnit)',
    load: () => import('./scenario/run.js').then((m) => m.runCommand),
  },
  {
    path: 'scenario init',
    description: 'Write a commented example scenario file that passes as written',
    load: () => import('./scenario/init.js').then((m) => m.initCommand),
  },

  {
    path: 'profiles',
    description:
      "Named services and their keys (staging, a teammate's sandbox, live), kept in ~/.config/ledger/config.toml",
    examples: [
      'printf %s "$STAGING_KEY" | ledger profiles add staging --base-url https://staging.example.com --api-key-stdin',
      'ledger profiles use staging',
      'ledger profiles list',
      'ledger --profile staging wallets list',
    ],
  },
  {
    path: 'profiles add',
    description:
      'Add a profile: a base URL, and a key read from stdin or the name of the variable that holds it; --live marks it live',
    load: () => import('./profiles/add.js').then((m) => m.addCommand),
  },
  {
    path: 'profiles list',
    description: 'The profiles, keys masked, the default marked',
    load: () => import('./profiles/list.js').then((m) => m.listCommand),
  },
  {
    path: 'profiles show',
    description: 'Show a profile, its key masked, and whether the key works and whose it is',
    load: () => import('./profiles/show.js').then((m) => m.showCommand),
  },
  {
    path: 'profiles use',
    description:
      'Make a profile the default: used where no flag, LEDGER_PROFILE, LEDGER_BASE_URL or sandbox state here names a service',
    load: () => import('./profiles/use.js').then((m) => m.useCommand),
  },
  {
    path: 'profiles remove',
    description: 'Remove a profile (and the default, when it was the default)',
    load: () => import('./profiles/remove.js').then((m) => m.removeCommand),
  },
  {
    path: 'whoami',
    description: 'Which setting chose the service, its URL, and whether the key works and for which developer',
    load: () => import('./whoami.js').then((m) => m.whoamiCommand),
  },

  {
    path: 'completion',
    description: 'Print a shell completion script for bash, zsh or fish',
    load: () => import('./completion.js').then((m) => m.completionCommand),
  },
];

const BY_PATH = new Map(COMMANDS.map((entry) => [entry.path, entry]));

export function entry(path: string): CommandEntry | undefined {
  return BY_PATH.get(path);
}

/** The entries one level below `path` ('' for the top), in listing order. */
export function childrenOf(path: string): CommandEntry[] {
  const depth = path === '' ? 1 : path.split(' ').length + 1;
  return COMMANDS.filter((e) => e.path.split(' ').length === depth && (path === '' || e.path.startsWith(`${path} `)));
}

/**
 * The deepest command that `args` name, and how many of them it used: `wallets get W --json` →
 * `wallets get`, 2. Options end the search (commands come before their options).
 */
export function locate(args: string[]): { path: string; used: number } {
  let path = '';
  let used = 0;
  for (const word of args) {
    if (word.startsWith('-')) break;
    const next = path ? `${path} ${word}` : word;
    if (!BY_PATH.has(next)) break;
    path = next;
    used += 1;
  }
  return { path, used };
}
