import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * How the fake model server answers the next requests. The streaming ones never end by themselves:
 * `endless` a chunked body (no Content-Length), `endless-huge-length` a body under a Content-Length of
 * 10 GB, `endless-short-length` a Content-Length of 64 with bytes that go on past it,
 * `endless-headers` header lines without end, `drip` a body that ends when the connection does (no
 * length), one byte per 100 ms, `drip-headers` headers one byte per 100 ms.
 */
export type FakeMode =
  | 'good'
  | 'malformed'
  | 'not-json'
  | 'slow'
  | 'error'
  | 'endless'
  | 'endless-huge-length'
  | 'endless-short-length'
  | 'endless-headers'
  | 'drip'
  | 'drip-headers';

/** One answer that streams until the client hangs up. */
export interface FakeStream {
  /** Bytes written to the socket so far. */
  written: number;
  /** Resolves with the bytes written once the client has closed the connection. */
  closed: Promise<number>;
}

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
  /** The streaming answers, in the order they began. */
  streams: FakeStream[];
  close(): Promise<void>;
}

export const GOOD_ANSWER = {
  extracted_intent: 'school_fees',
  suggested_label: 'School fees',
  confidence_score: 0.9,
  flags: [],
  explanation: 'The narration names school fees for a pupil.',
};

const STATUS_LINE = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n';
const BODY_START = '{"choices":[{"message":{"role":"assistant","content":"';
const FILLER = Buffer.alloc(16 * 1024, 'a');

/**
 * Where each streaming mode starts on the raw socket, what it sends next, forever, and how often.
 * The endless ones send 16 KiB a millisecond at most (16 MB/s), so what the fake has written stays
 * close to what the client has read, whatever the kernel's socket buffers could hold.
 */
const STREAMS: Record<
  Extract<FakeMode, `endless${string}` | `drip${string}`>,
  { head: string; next: () => Buffer; everyMs: number }
> = {
  endless: {
    head: `${STATUS_LINE}transfer-encoding: chunked\r\n\r\n${chunk(Buffer.from(BODY_START))}`,
    next: () => Buffer.from(chunk(FILLER)),
    everyMs: 1,
  },
  'endless-huge-length': {
    head: `${STATUS_LINE}content-length: 10000000000\r\n\r\n${BODY_START}`,
    next: () => FILLER,
    everyMs: 1,
  },
  'endless-short-length': {
    head: `${STATUS_LINE}content-length: 64\r\n\r\n${BODY_START}`,
    next: () => FILLER,
    everyMs: 1,
  },
  'endless-headers': { head: STATUS_LINE, next: () => Buffer.from(`x-filler: ${FILLER.toString()}\r\n`), everyMs: 1 },
  drip: { head: `${STATUS_LINE}connection: close\r\n\r\n${BODY_START}`, next: () => Buffer.from('a'), everyMs: 100 },
  'drip-headers': { head: `${STATUS_LINE}x-filler: `, next: () => Buffer.from('a'), everyMs: 100 },
};

function chunk(data: Buffer): string {
  return `${data.length.toString(16)}\r\n${data.toString()}\r\n`;
}

/** Writes `head`, then `next()` every `everyMs` while the client keeps up, until the client hangs up. */
function stream(
  socket: Socket,
  { head, next, everyMs }: (typeof STREAMS)[keyof typeof STREAMS],
  timers: Set<NodeJS.Timeout>,
): FakeStream {
  // Not events.once: a reset connection emits 'error' before 'close', and that would reject.
  const record: FakeStream = {
    written: 0,
    closed: new Promise((resolve) => socket.once('close', () => resolve(record.written))),
  };
  const write = (data: Buffer | string) => {
    record.written += Buffer.byteLength(data);
    socket.write(data);
  };
  socket.on('error', () => {});
  write(head);
  const timer = setInterval(() => {
    if (!socket.writableNeedDrain && !socket.destroyed) write(next());
  }, everyMs);
  timers.add(timer);
  void record.closed.then(() => {
    clearInterval(timer);
    timers.delete(timer);
  });
  return record;
}

const completion = (content: string) => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

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
    fake.requests.push({
      path: request.url ?? '',
      body: JSON.parse(body),
      authorization: request.headers.authorization,
    });
    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') return send(404, { error: 'not found' });
    switch (fake.mode) {
      case 'good':
        return send(200, completion(JSON.stringify(fake.answer)));
      case 'malformed':
        return send(
          200,
          completion(JSON.stringify({ ...fake.answer, confidence_score: 'very high', extracted_intent: 'tuition' })),
        );
      case 'not-json':
        return send(200, completion('I think this is school fees.'));
      case 'error':
        return send(500, { error: { message: 'model crashed' } });
      case 'endless':
      case 'endless-huge-length':
      case 'endless-short-length':
      case 'endless-headers':
      case 'drip':
      case 'drip-headers':
        fake.streams.push(stream(request.socket, STREAMS[fake.mode], timers));
        return;
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
    streams: [],
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
