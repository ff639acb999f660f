import { UnreachableError } from '../client/errors.js';
import { runCommandLine, type Shell } from './command-step.js';
import { interpolateText, interpolateValue, type Vars } from './interpolate.js';
import type { Outcome, Step } from './model.js';
import type { Target } from './target.js';
import { awaitWebhook, type Deliveries } from './webhooks.js';

export interface StepContext {
  target: Target;
  shell: Shell;
  /** The deliveries earlier expect_webhook steps of this scenario matched: each is matched once. */
  deliveries: Deliveries;
}

/** Runs one step with `${…}` filled in from `vars`. */
export async function execute(step: Step, vars: Vars, context: StepContext): Promise<Outcome> {
  switch (step.kind) {
    case 'run': {
      const words = step.words.map((word) => interpolateText(word, vars));
      const result = await runCommandLine(words, context.target, context.shell);
      const unreachable = result.exit === 3 && result.error?.code === 'UNREACHABLE';
      const summary =
        result.exit === 0
          ? undefined
          : `exited ${result.exit}${result.error ? `: Error [${result.error.code}]: ${result.error.message}` : ''}`;
      return { result: { ...result }, ok: result.exit === 0, summary, command: words.join(' '), unreachable };
    }
    case 'request':
      return request(
        context.target,
        step.method,
        interpolateText(step.target, vars, encodeURIComponent),
        interpolateValue(step.body, vars),
        interpolateValue(step.headers, vars) as Record<string, string | null>,
      );
    case 'advance':
      return request(context.target, 'POST', '/sandbox/clock/advance', { seconds: step.seconds });
    case 'snapshot':
      return step.action === 'save'
        ? request(context.target, 'POST', '/sandbox/snapshots', { name: step.snapshot })
        : request(context.target, 'POST', `/sandbox/snapshots/${encodeURIComponent(step.snapshot)}/restore`, undefined);
    case 'expect_webhook':
      return awaitWebhook(
        context.target,
        step.eventType,
        step.match.map((m) => ({ ...m, expected: interpolateValue(m.expected, vars) })),
        context.deliveries,
      );
  }
}

/**
 * An HTTP request to the sandbox with the scenario's key (unless the headers give their own
 * `x-api-key`, or null to send none), the body as JSON.
 */
export async function request(
  target: Target,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string | null> = {},
): Promise<Outcome> {
  const given = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const sent: Record<string, string> = { 'x-api-key': target.apiKey };
  const payload = body === undefined ? undefined : JSON.stringify(body);
  if (payload !== undefined) sent['content-type'] = 'application/json';
  for (const [name, value] of Object.entries(given)) {
    if (value === null) delete sent[name];
    else sent[name] = String(value);
  }
  try {
    const response = await target.transport({ method, path, headers: sent, body: payload });
    let parsed: unknown = response.body;
    try {
      parsed = response.body ? JSON.parse(response.body) : undefined;
    } catch {
      // Not JSON: the body is the text.
    }
    const envelope = (parsed && typeof parsed === 'object' ? parsed : {}) as {
      data?: unknown;
      detail?: { code?: string; message?: string };
    };
    const ok = response.status >= 200 && response.status < 300;
    const error = envelope.detail;
    return {
      result: { status: response.status, headers: response.headers, body: parsed, data: envelope.data, error },
      ok,
      summary: ok
        ? undefined
        : `answered ${response.status}${error?.code ? ` ${error.code}: ${error.message ?? ''}` : ''}`,
    };
  } catch (error) {
    if (!(error instanceof UnreachableError)) throw error;
    return { result: {}, ok: false, summary: error.message, unreachable: true };
  }
}
