/** One carrier connection the worker sends through: an SMPP account, or (test mode) a simulated one. */
export type UpstreamConfig = {
  /** Stable id: "env" for the environment's upstream, the routing table's id for the others. */
  id: string;
  name: string;
  kind: "smpp" | "simulator";
  /** smpp://host:port (ssmpp:// for TLS); credentials in the URL are used unless systemId/password are given. */
  url?: string;
  systemId?: string;
  password?: string;
  /** Sessions each worker process opens to it. */
  binds: number;
  /** submit_sm in flight at most, per bind. */
  window: number;
  /** Segments per second at most, for the whole deployment; 0 = no cap. */
  tps: number;
  /** The source address of messages without a sender of their own. */
  sourceAddr?: string;
  /** A simulated upstream that refuses every submit before accepting it (so a demo shows failover). */
  failing?: boolean;
};

/** The id of the upstream the environment configures (SMPP_URL..., or the simulator). */
export const ENV_UPSTREAM_ID = "env";

/** The route of a message when no routing table says otherwise: the environment's upstream alone. */
export const DEFAULT_UPSTREAMS: readonly string[] = [ENV_UPSTREAM_ID];

/** A destination's route: the upstream ids to try, in order. */
export type UpstreamsFor = (to: string) => readonly string[];
