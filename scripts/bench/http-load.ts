// A lean HTTP/1.1 load generator: keep-alive sockets, one request in flight per socket, requests
// written as prepared bytes, responses parsed just enough (status, Content-Length or chunked).
// The benchmark's client must cost little CPU: it shares the two cores with what it measures.
import { connect, type Socket } from "node:net";

export type LoadResult = {
  statuses: Map<number, number>;
  latenciesMs: Float64Array;
  /** performance.now() of the first request written and of the last response read. */
  startedAt: number;
  finishedAt: number;
  bodies: string[];
};

type Options = {
  port: number;
  host?: string;
  connections: number;
  total: number;
  /** The raw request bytes for request number i. */
  request: (i: number) => Buffer;
  /** Keep response bodies (for checks); off by default. */
  keepBodies?: boolean;
};

const CRLF2 = Buffer.from("\r\n\r\n");

type Callbacks = {
  take: () => number;
  done: (i: number, status: number, body: string, ms: number) => void;
  finished: () => void;
  failed: (error: Error) => void;
};

/** One keep-alive socket that sends the next request as soon as the previous answer is read. */
function openConnection(options: Options, callbacks: Callbacks): void {
  let buffer: Buffer = Buffer.alloc(0);
  let current = -1;
  let sentAt = 0;
  const socket: Socket = connect({ port: options.port, host: options.host ?? "127.0.0.1", noDelay: true });

  const next = () => {
    const i = callbacks.take();
    if (i < 0) {
      socket.end();
      callbacks.finished();
      return;
    }
    current = i;
    sentAt = performance.now();
    socket.write(options.request(i));
  };

  const onData = (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf(CRLF2);
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString("latin1");
      const status = Number(head.slice(9, 12));
      const lengthMatch = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      let bodyEnd: number;
      let body: Buffer;
      if (lengthMatch) {
        bodyEnd = end + 4 + Number(lengthMatch[1]);
        if (buffer.length < bodyEnd) return;
        body = buffer.subarray(end + 4, bodyEnd);
      } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
        const parsed = parseChunked(buffer, end + 4);
        if (!parsed) return;
        ({ end: bodyEnd, body } = parsed);
      } else {
        throw new Error(`response without a length: ${head}`);
      }
      buffer = buffer.subarray(bodyEnd);
      callbacks.done(current, status, options.keepBodies ? body.toString("utf8") : "", performance.now() - sentAt);
      next();
      if (buffer.length === 0) return;
    }
  };

  socket.on("connect", next);
  socket.on("data", onData);
  socket.on("error", callbacks.failed);
}

function parseChunked(buffer: Buffer, start: number): { end: number; body: Buffer } | null {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const line = buffer.indexOf("\r\n", at);
    if (line < 0) return null;
    const size = parseInt(buffer.subarray(at, line).toString("latin1"), 16);
    if (buffer.length < line + 2 + size + 2) return null;
    if (size === 0) return { end: line + 4, body: Buffer.concat(parts) };
    parts.push(buffer.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
}

/** Sends `total` requests over `connections` keep-alive sockets and collects what came back. */
export function runLoad(options: Options): Promise<LoadResult> {
  const statuses = new Map<number, number>();
  const latenciesMs = new Float64Array(options.total);
  const bodies: string[] = [];
  let issued = 0;
  let open = options.connections;
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const take = () => (issued < options.total ? issued++ : -1);
    const done = (i: number, status: number, body: string, ms: number) => {
      latenciesMs[i] = ms;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (options.keepBodies) bodies[i] = body;
    };
    const finished = () => {
      if (--open === 0) resolve({ statuses, latenciesMs, startedAt, finishedAt: performance.now(), bodies });
    };
    for (let c = 0; c < options.connections; c++) openConnection(options, { take, done, finished, failed: reject });
  });
}

export function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The raw bytes of POST /api/v1/messages with `message` as its JSON body, as the benchmarks send it. */
export function sendRequest(port: number, apiKey: string, message: { to: string; body: string }): Buffer {
  const body = JSON.stringify(message);
  return Buffer.from(
    `POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${apiKey}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** The bench's i-th API message: a +1 202 number among 100,000, and a text naming it. */
export function benchMessage(i: number): { to: string; body: string } {
  return { to: `+1202${String(3000000 + (i % 100000)).padStart(7, "0")}`, body: `Benchmark message ${i}` };
}
