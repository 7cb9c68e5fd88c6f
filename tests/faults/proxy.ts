// The fault run's load balancer: a small round-robin HTTP proxy in the run's own process, in front of
// the web processes. A backend that refuses the connection (killed, not yet restarted) is skipped for
// the next one, as a balancer's health check would; a request cut off inside a backend gets a 502,
// which the client retries with its idempotency key.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export class RoundRobinProxy {
  /** Requests answered by a backend, passed on to the next one (refused), and answered 502 (cut off). */
  readonly counters = { proxied: 0, skippedRefused: 0, badGateway: 0 };
  private turn = 0;
  private readonly server: Server;
  readonly ports: number[];

  private constructor(server: Server, ports: number[]) {
    this.server = server;
    this.ports = ports;
  }

  static async start(ports: number[]): Promise<RoundRobinProxy> {
    const server = createServer();
    const proxy = new RoundRobinProxy(server, ports);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => proxy.forward(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  private forward(req: IncomingMessage, res: ServerResponse) {
    // The body is read first, so it can go to another backend when the first refuses the connection.
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => this.send(req, Buffer.concat(chunks), res, this.ports.length));
  }

  private send(req: IncomingMessage, body: Buffer, res: ServerResponse, triesLeft: number) {
    this.turn = (this.turn + 1) % this.ports.length;
    const upstream = request(
      { host: "127.0.0.1", port: this.ports[this.turn], method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        this.counters.proxied += 1;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      },
    );
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED" && triesLeft > 1) {
        this.counters.skippedRefused += 1;
        this.send(req, body, res, triesLeft - 1);
      } else if (!res.headersSent) {
        this.counters.badGateway += 1;
        res.writeHead(502, { "Content-Type": "text/plain" }).end(`proxy: ${error.message}`);
      } else res.destroy();
    });
    upstream.end(body);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
