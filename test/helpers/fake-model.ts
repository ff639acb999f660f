import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake model server answers the next requests. */
export type FakeMode = 'good' | 'malformed' | 'not-json' | 'slow' | 'error';

export interface FakeModel {
  /** Base URL, as `--analyser-url` takes it (ends in /v1). */
  url: string;
  mode: FakeMode;
  /** The answer `good` (and `slow`) send, as the message content. */
  answer: Record<string, unknown>;
  /** How long `slow` waits before answering. */
  delayMs: number;
  /** Every request body received, parsed. */
  requests: { path: string; body: any; authorization: string | undefined }[];
  close(): Promise<void>;
}

export const GOOD_ANSWER = {
  extracted_intent: 'school_fees',
  suggested_label: 'School fees',
  confidence_score: 0.9,
  flags: [],
  explanation: 'The narration names school fees for a pupil.',
};

const completion = (content: string) => ({ id: 'chatcmpl-fake', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

/**
 * A local stand-in for an OpenAI-compatible server (Ollama, llama.cpp, vLLM) on a loopback port:
 * `POST /v1/chat/completions` answers as `mode` says. No network beyond loopback.
 * @example const model = await startFakeModel(); model.mode = 'error';
 */
export async function startFakeModel(): Promise<FakeModel> {
  const timers = new Set<NodeJS.Timeout>();
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => resolve(text));
    });
  const server = createServer(async (request, response) => {
    const body = await read(request);
    fake.requests.push({ path: request.url ?? '', body: JSON.parse(body), authorization: request.headers.authorization });
    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') return send(404, { error: 'not found' });
    switch (fake.mode) {
      case 'good':
        return send(200, completion(JSON.stringify(fake.answer)));
      case 'malformed':
        return send(200, completion(JSON.stringify({ ...fake.answer, confidence_score: 'very high', extracted_intent: 'tuition' })));
      case 'not-json':
        return send(200, completion('I think this is school fees.'));
      case 'error':
        return send(500, { error: { message: 'model crashed' } });
      case 'slow': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!response.destroyed) send(200, completion(JSON.stringify(fake.answer)));
        }, fake.delayMs);
        timers.add(timer);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: FakeModel = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    mode: 'good',
    answer: { ...GOOD_ANSWER },
    delayMs: 2_000,
    requests: [],
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
