// The parts of smpp 0.5.1 (no bundled types) that the transport and the test SMSC use.
declare module "smpp" {
  import type { EventEmitter } from "node:events";
  import type { Server as NetServer, Socket } from "node:net";

  export type PduFields = Record<string, unknown>;
  export type ShortMessage = Buffer | string | { udh?: Buffer | Buffer[]; message: Buffer | string };

  export class PDU {
    constructor(command: string, options?: PduFields);
    /** Decodes a whole PDU from its bytes. */
    constructor(buffer: Buffer);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    system_id?: string;
    password?: string;
    message_id?: string;
    source_addr?: string;
    destination_addr?: string;
    esm_class?: number;
    data_coding?: number;
    registered_delivery?: number;
    short_message?: ShortMessage;
    message_payload?: ShortMessage;
    receipted_message_id?: string;
    message_state?: number;
    user_message_reference?: number;
    [field: string]: unknown;
    isResponse(): boolean;
    response(options?: PduFields): PDU;
    toBuffer(): Buffer;
    /** What the Session reads every PDU with: the rest of one (after its command_length) or false. */
    static fromStream(stream: { read(size: number): Buffer | null }, commandLength: number): PDU | false;
  }

  type OnResponse = (pdu: PDU) => void;

  export class Session extends EventEmitter {
    socket: Socket;
    /** Any object with these members will do (the transport sends hand-encoded PDUs). */
    send(
      pdu: Pick<PDU, "command" | "sequence_number" | "isResponse" | "toBuffer">,
      onResponse?: OnResponse,
      onSent?: OnResponse,
    ): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver(options: PduFields, onResponse?: OnResponse): boolean;
    submit_sm(options: PduFields, onResponse?: OnResponse): boolean;
    deliver_sm(options: PduFields, onResponse?: OnResponse): boolean;
    data_sm(options: PduFields, onResponse?: OnResponse): boolean;
    enquire_link(options?: PduFields | OnResponse, onResponse?: OnResponse): boolean;
    unbind(options?: PduFields | OnResponse, onResponse?: OnResponse): boolean;
  }

  export class Server extends NetServer {
    sessions: Session[];
  }

  // A CommonJS module whose exports are mostly assigned in loops: import the whole object.
  const smpp: {
    connect(options: { host: string; port: number; tls?: boolean }, listener?: () => void): Session;
    createServer(listener: (session: Session) => void): Server;
    PDU: typeof PDU;
    /** Command status names to values, e.g. errors.ESME_RTHROTTLED === 0x58. */
    errors: Record<string, number>;
    encodings: Record<
      string,
      { match(value: string): boolean; encode(value: string): Buffer; decode(value: Buffer): string }
    >;
  };
  export default smpp;
}
