import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  envelope: { from: string; to: string[] };
  /** Header names in lower case, values unfolded and decoded. */
  headers: Record<string, string>;
  text: string;
};

// RFC 2047 encoded words, as nodemailer writes non-ASCII header values.
function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === "b"
      ? Buffer.from(data, "base64").toString("utf8")
      : decodeQuotedPrintable(data.replace(/_/g, " ")),
  );
}

function decodeQuotedPrintable(value: string): string {
  const bytes = value
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function parse(raw: string): Pick<ReceivedMail, "headers" | "text"> {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const body = raw.slice(split + 4);
  const encoding = headers["content-transfer-encoding"]?.toLowerCase();
  const text =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(body)
      : encoding === "base64"
        ? Buffer.from(body, "base64").toString("utf8")
        : body;
  return { headers, text: text.replace(/\r\n/g, "\n") };
}

/**
 * A real SMTP server on loopback that keeps what it accepts. `rejectFirst` answers that many
 * messages with a temporary failure (451) before accepting, like a busy or greylisting server.
 */
export async function startSmtpSink(port = 0, options: { rejectFirst?: number } = {}) {
  const mails: ReceivedMail[] = [];
  let rejections = options.rejectFirst ?? 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (rejections > 0) {
          rejections -= 1;
          const error = Object.assign(new Error("Try again later"), { responseCode: 451 });
          return callback(error);
        }
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        mails.push({ envelope, ...parse(Buffer.concat(chunks).toString("utf8")) });
        callback();
      });
    },
  });
  await new Promise<void>((ready, fail) => {
    server.server.once("error", fail);
    server.listen(port, "127.0.0.1", () => ready());
  });
  return {
    port: (server.server.address() as { port: number }).port,
    mails,
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}
