/** The id of the upstream the environment configures (SMPP_URL..., or the simulator). */
export const ENV_UPSTREAM_ID = "env";

/** The route of a message when no routing table says otherwise: the environment's upstream alone. */
export const DEFAULT_UPSTREAMS: readonly string[] = [ENV_UPSTREAM_ID];

/** A destination's route: the upstream ids to try, in order. */
export type UpstreamsFor = (to: string) => readonly string[];
