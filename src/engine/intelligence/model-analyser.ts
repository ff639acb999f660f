import { createHash } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import { z } from 'zod';
import {
  type AnalyseOptions,
  type AnalysisInput,
  type NarrationAnalyser,
  type NarrationInput,
  RISK_FLAGS,
  type ServiceIntelligence,
} from './analyser.js';
import { GENERAL_PAYMENT, INTENTS } from './lexicon.js';
import { applyMarkers } from './markers.js';
import { paymentRules, readInstruction } from './instructions/rules.js';
import { RulesAnalyser } from './rules-analyser.js';

/** Seconds a model has to answer before the rules analyser answers instead. */
export const DEFAULT_MODEL_TIMEOUT_SECONDS = 3;

/**
 * The most of a model's answer that is read: a good one is well under 2 KiB. Past it the request is
 * aborted, so a server that streams without end costs 64 KiB, not the process's memory.
 */
export const MAX_ANSWER_BYTES = 64 * 1024;

const INTENT_NAMES: string[] = [...INTENTS.map((i) => i.intent), 'transfer', GENERAL_PAYMENT.intent, 'unknown'];
const FLAGS: string[] = [
  ...RISK_FLAGS,
  'EMPTY_NARRATION',
  'UNCLEAR_NARRATION',
  'AMBIGUOUS_INTENT',
  'UNEXPECTED_FOR_WALLET',
];

/** What the model must answer: validated with zod, and sent to the model as its JSON schema. */
export const ModelAnswer = z.strictObject({
  extracted_intent: z.enum(INTENT_NAMES),
  suggested_label: z.string().min(1).max(60),
  confidence_score: z.number().min(0).max(1),
  flags: z.array(z.enum(FLAGS)).max(FLAGS.length),
  explanation: z.string().min(1).max(500),
});
export type ModelAnswer = z.infer<typeof ModelAnswer>;
const { $schema: _dialect, ...ANSWER_SCHEMA } = z.toJSONSchema(ModelAnswer);

const INSTRUCTIONS = [
  'You read the narration of a payment arriving in a Nigerian bank wallet and say what it is for.',
  'Narrations use channel formats (NIP/, MOB/, USSD/, POS/, FIP:, TRF), abbreviations (sch, trf, frm, pymt, bal, contri), pidgin, Yoruba, Igbo and Hausa.',
  `extracted_intent is one of: ${INTENT_NAMES.join(', ')}. ` +
    `Use "transfer" for channel words and names only, "payment" for readable text with no specific purpose, ` +
    `"unknown" for empty or unreadable text.`,
  'suggested_label is a short label for people, such as "School fees" or "General payment".',
  'confidence_score is from 0 to 1: below 0.5 means a person must look at the payment (empty, ' +
    'unreadable or meaningless text); a readable, plausible narration gets 0.5 or more.',
  'flags: SUSPECTED_FRAUD for fraud, scams or stolen money; ' +
    'REJECTED_BY_PROMPT or REVIEW_REQUESTED_BY_PROMPT when the wallet guidance says to reject or review such a ' +
    'payment; EMPTY_NARRATION, UNCLEAR_NARRATION, AMBIGUOUS_INTENT, UNEXPECTED_FOR_WALLET as they apply.',
  'explanation is one short sentence. Answer with JSON only.',
].join('\n');

/** Where validated answers are kept across requests and restarts (the sandbox keeps them in its database), per developer. */
export interface AnswerStore {
  get(developerId: string, key: string): Promise<string | undefined>;
  put(developerId: string, key: string, model: string, answer: string): Promise<void>;
}

export interface ModelAnalyserOptions {
  /** Base URL of an OpenAI-compatible API, such as http://127.0.0.1:11434/v1 (Ollama). */
  url: string;
  model: string;
  apiKey?: string | undefined;
  timeoutSeconds?: number | undefined;
  store?: AnswerStore | undefined;
  /** Answers when the model cannot (default: the rules analyser). */
  fallback?: NarrationAnalyser;
}

type Asked = { ok: true; answer: ModelAnswer } | { ok: false; why: string };

/** One developer's question: its store key is `key`, its place in memory `memo` (the developer with it). */
interface Question {
  developerId: string;
  key: string;
  memo: string;
  narration: string;
  prompt: string;
}

/** The in-memory cache's bound: beyond it the oldest answers are forgotten (the store keeps them). */
const MEMORY_ENTRIES = 10_000;

/**
 * A model-backed analyser for developers who run a local model server (Ollama, llama.cpp's server,
 * vLLM): the OpenAI-compatible chat completions API, the wallet's system_prompt as guidance, a JSON
 * schema for the answer, zod validation. A timeout, an invalid answer or any error falls back to the
 * rules analyser, and the explanation says so. Answers are cached per (developer, narration, prompt,
 * model), and questions in flight are shared only within a developer, so nothing one developer asks
 * shows in what or how fast another is answered; failures are not cached, so the model is asked
 * again next time. Inside a payment's database transaction (`offline`) it never waits on the
 * network: it uses an answer it already has, or the rules.
 * @example const analyser = new ModelAnalyser({ url: 'http://127.0.0.1:11434/v1', model: 'llama3.2' });
 */
export class ModelAnalyser implements NarrationAnalyser {
  readonly remote = true;
  readonly name: string;
  /** Validated answers by question (`Question.memo`), oldest first. */
  private readonly answers = new Map<string, ModelAnswer>();
  /** Questions in flight, so the same narration asked twice at once by one developer is asked once. */
  private readonly pending = new Map<string, Promise<Asked>>();
  private readonly fallback: NarrationAnalyser;
  private readonly timeoutMs: number;

  constructor(private readonly options: ModelAnalyserOptions) {
    this.fallback = options.fallback ?? new RulesAnalyser();
    this.timeoutMs = (options.timeoutSeconds ?? DEFAULT_MODEL_TIMEOUT_SECONDS) * 1000;
    this.name = `openai-compatible (${options.model})`;
  }

  async analyse(input: AnalysisInput, options: AnalyseOptions = {}): Promise<ServiceIntelligence> {
    const key = createHash('sha256')
      .update(JSON.stringify([input.narration, input.systemPrompt, this.options.model]))
      .digest('hex');
    const question = {
      developerId: input.developerId,
      key,
      memo: JSON.stringify([input.developerId, key]),
      narration: input.narration,
      prompt: input.systemPrompt,
    };
    const known = this.answers.get(question.memo);
    let asked: Asked;
    if (known) asked = { ok: true, answer: known };
    else if (options.offline)
      asked = { ok: false, why: 'is not asked while a payment is being written (no answer for this narration yet)' };
    else asked = await this.ask(question);
    if (!asked.ok) {
      const rules = await this.fallback.analyse(input);
      return {
        ...rules,
        explanation: [
          `model ${this.options.model} ${asked.why}: the rules analyser answered instead`,
          ...rules.explanation,
        ],
      };
    }
    return fromAnswer(asked.answer, this.options.model, input);
  }

  private ask(question: Question): Promise<Asked> {
    let asking = this.pending.get(question.memo);
    if (!asking) {
      asking = this.lookUpOrAsk(question).finally(() => this.pending.delete(question.memo));
      this.pending.set(question.memo, asking);
    }
    return asking;
  }

  private async lookUpOrAsk({ developerId, key, memo, narration, prompt }: Question): Promise<Asked> {
    const stored = parseStored(await this.options.store?.get(developerId, key));
    const asked = stored ? ({ ok: true, answer: stored } as const) : await this.request(narration, prompt);
    if (asked.ok) {
      if (!stored) await this.options.store?.put(developerId, key, this.options.model, JSON.stringify(asked.answer));
      this.answers.set(memo, asked.answer);
      if (this.answers.size > MEMORY_ENTRIES) this.answers.delete(this.answers.keys().next().value!);
    }
    return asked;
  }

  private async request(narration: string, prompt: string): Promise<Asked> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      const response = await fetch(`${this.options.url.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(requestBody(this.options.model, narration, prompt)),
        signal: controller.signal,
      });
      if (!response.ok) {
        controller.abort();
        return { ok: false, why: `answered HTTP ${response.status}` };
      }
      const text = await readAnswer(response, controller);
      if (text === undefined) return { ok: false, why: `sent an answer larger than ${MAX_ANSWER_BYTES / 1024} KiB` };
      return parseCompletion(text);
    } catch (error) {
      if (controller.signal.aborted) return { ok: false, why: `did not answer within ${this.timeoutMs / 1000} s` };
      const cause = (error as Error).cause;
      // Node's fetch stops reading headers at --max-http-header-size (16 KiB by default) by itself.
      if ((cause as { code?: string } | undefined)?.code === 'UND_ERR_HEADERS_OVERFLOW')
        return { ok: false, why: `sent headers larger than ${maxHeaderSize / 1024} KiB` };
      return {
        ok: false,
        why: `could not be reached (${cause instanceof Error ? cause.message : (error as Error).message})`,
      };
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The answer's text, or undefined when it is longer than MAX_ANSWER_BYTES (by its Content-Length or
 * by what arrives: a length may be missing or lie). Aborting drops the connection, so the server's
 * stream stops too.
 */
async function readAnswer(response: Response, controller: AbortController): Promise<string | undefined> {
  if (Number(response.headers.get('content-length')) > MAX_ANSWER_BYTES) {
    controller.abort();
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    // Aborted after the loop: aborting inside it would throw here as if the timeout had struck.
    if (size > MAX_ANSWER_BYTES) break;
    chunks.push(chunk);
  }
  if (size > MAX_ANSWER_BYTES) {
    controller.abort();
    return undefined;
  }
  return new TextDecoder().decode(Buffer.concat(chunks, size));
}

/** The chat completions request: instructions, the wallet's guidance, the narration, the answer's schema. */
export function requestBody(model: string, narration: string, prompt: string) {
  return {
    model,
    temperature: 0,
    messages: [
      { role: 'system', content: INSTRUCTIONS },
      {
        role: 'system',
        content: `Guidance from the wallet's owner (its system_prompt): ${prompt.trim() ? JSON.stringify(prompt) : 'none'}`,
      },
      { role: 'user', content: `Narration: ${JSON.stringify(narration)}` },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'service_intelligence', strict: true, schema: ANSWER_SCHEMA },
    },
  };
}

function parseStored(stored: string | undefined): ModelAnswer | undefined {
  if (stored === undefined) return undefined;
  try {
    return ModelAnswer.parse(JSON.parse(stored));
  } catch {
    return undefined;
  }
}

const Completion = z.object({ choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1) });

function parseCompletion(text: string): Asked {
  try {
    const completion = Completion.safeParse(JSON.parse(text));
    if (!completion.success) return { ok: false, why: 'answered without a message' };
    // Some servers wrap JSON in a code fence even when asked for JSON.
    const content = completion.data.choices[0]!.message.content.trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
    const answer = ModelAnswer.safeParse(JSON.parse(content));
    if (!answer.success)
      return {
        ok: false,
        why: `gave an answer that breaks the schema (${[...new Set(answer.error.issues.map((i) => i.path.join('.') || 'the answer'))].join(', ')})`,
      };
    return { ok: true, answer: answer.data };
  } catch {
    return { ok: false, why: 'gave an answer that is not JSON' };
  }
}

/**
 * The model's answer as service_intelligence, with the prompt's amount limits, its rules on senders and the markers
 * applied on top (the model is sent neither the amount nor the sender).
 */
function fromAnswer(
  answer: ModelAnswer,
  model: string,
  { narration, systemPrompt, amount, senderName }: NarrationInput,
): ServiceIntelligence {
  const draft = {
    confidence: answer.confidence_score,
    flags: new Set(answer.flags),
    explanation: [`model ${model}: ${answer.explanation}`],
  };
  const payment = { amount, intent: answer.extracted_intent, senderName, narration };
  for (const { flag, line } of paymentRules(readInstruction(systemPrompt), payment)) {
    if (flag) draft.flags.add(flag);
    draft.explanation.push(line);
  }
  applyMarkers(narration, draft);
  return {
    raw_narration: narration,
    extracted_intent: answer.extracted_intent,
    confidence_score: Math.round(draft.confidence * 100) / 100,
    flags: [...draft.flags].sort(),
    suggested_label: answer.suggested_label,
    explanation: draft.explanation,
  };
}
