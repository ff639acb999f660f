import type { Capabilities } from '../client/capabilities.js';
import type { ApiClient, Transport } from '../client/http.js';
import type { ClientConfig } from '../client/config.js';
import type { Stream } from './output/render.js';
import type { View } from './output/views.js';
import type { CommandLines } from '../scenario/command-step.js';

export type { CommandLines };

/**
 * What a command's runner is handed (io.ts `createIo` makes it): the shapes alone, so that the
 * modules an Io calls on (prompts.ts, unsupported.ts) can name it without importing io.ts back.
 */

/** Flags every client command takes. */
export interface GlobalFlags {
  json?: boolean;
  quiet?: boolean;
  wide?: boolean;
  /** How a list is printed: `table`, `tsv`, `csv` or `json` (see listFormat). */
  format?: string;
  baseUrl?: string;
  apiKey?: string;
  /** A profile of the profiles file (LEDGER_PROFILE fills it too). */
  profile?: string;
  /** Says the command is meant for a live service: required with a live key or profile. */
  live?: boolean;
  /** Allows an `http://` base URL beyond loopback (a test server on a trusted network). */
  insecure?: boolean;
  /** Goes on without asking; on a live service, stands for the typed confirmation in a script. */
  yes?: boolean;
}

/** What a runner touches outside itself: streams, environment, the API client and the renderer. */
export interface Io {
  stdout: Stream;
  stderr: Stream;
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  flags: GlobalFlags;
  config(): ClientConfig;
  /** Reads the profiles file when a profile may decide where requests go (before `config`, which is synchronous). */
  prepare(): Promise<void>;
  /** The API client with the key; says how to get one when there is none (no sandbox state). Refuses a live key without --live. */
  client(): ApiClient;
  /** A client that sends no key, for what needs none (`GET /sandbox/health`): a key goes only where it is needed. */
  publicClient(): ApiClient;
  /**
   * On a live service, what the next writes will do, confirmed: by --yes in a script, else by typing
   * `expected` at a terminal after reading `summary`. Nothing on a sandbox. Every write on a live
   * service is confirmed: one whose command does not call this is confirmed generically when sent.
   */
  confirmLive(summary: string, expected: string, named?: string): Promise<void>;
  /** Whether a write would be confirmed by typing (a live service, a terminal, no --yes): a command then shows what will happen first. */
  asksLive(): boolean;
  /**
   * Refuses a command of the sandbox alone (SANDBOX_ONLY, exit 2) against a live key, or against a
   * server without the sandbox's routes (its /openapi.json, asked without a key, lists none), before
   * any request with the key.
   */
  sandboxOnly(command: string): Promise<void>;
  /**
   * What the server offers beyond the seed interface (client/capabilities.ts): everything for this
   * folder's own sandbox (nothing asked), else read once from its /openapi.json and cached.
   */
  capabilities(): Promise<Capabilities>;
  /** Writes the target line (live.ts targetLine) on stderr, once, before a question. */
  announceTarget(): void;
  /**
   * Prints a result on stdout as --json, --quiet or for people. A table or record for people has the
   * target line above it, but with `target: false` (what says where requests go itself, or sends none).
   */
  show(data: unknown, view: View, context?: { now?: Date; target?: boolean }): Promise<void>;
  /** A note for people on stderr; silent under --json and --quiet. */
  note(text: string): void;
  /** True when a person is at the keyboard: prompts are allowed. */
  interactive(): boolean;
  /** Names and runs other command lines in this process (see CommandLines). */
  commandLines(): CommandLines;
}

export interface IoSources {
  /** Names and runs other command lines in this process (`scenario run`'s steps); set by the program that runs the command. */
  commandLines?: CommandLines | undefined;
  stdout?: Stream;
  stderr?: Stream;
  stdinIsTTY?: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** How requests reach the API (default: `node:http` to the base URL); a scenario step's goes in-process. */
  transport?: Transport;
}

/**
 * A command run inside another command's process (a scenario step) rather than by `main`: where
 * its output goes, how its requests travel, and the exit code it would have had, which the action
 * records here instead of setting `process.exitCode`.
 */
export interface Invocation {
  sources: IoSources;
  exitCode: number;
}
