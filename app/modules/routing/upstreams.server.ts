// The upstreams messages leave through: the environment's (SMPP_URL or the simulator, id "env",
// read-only) and the ones an admin adds, with their SMPP password sealed at rest (never shown again).
import { asc, eq } from "drizzle-orm";
import { getDb, withTx } from "#app/db/client.server.ts";
import { isUniqueViolation } from "#app/db/dialect.server.ts";
import { upstreams } from "#app/db/schema/routing.ts";
import type { UpstreamKind } from "#app/db/enums.ts";
import { clock } from "#app/utils/clock.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { createSealer } from "#app/utils/sealed.server.ts";
import { RoutingInputError, RoutingNotFoundError } from "#app/modules/routing/errors.ts";
import { forgetRouteTable } from "#app/modules/routing/route-table.server.ts";
import { ENV_UPSTREAM } from "#app/modules/routing/routing.ts";
import type { UpstreamConfig } from "#app/modules/messaging/transport-types.ts";

/** An upstream as the admin sees it: never its password, only whether one is stored. */
export type AdminUpstream = {
  id: string;
  name: string;
  kind: UpstreamKind;
  /** smpp://host:port without credentials; null for a simulator. */
  url: string | null;
  systemId: string | null;
  hasPassword: boolean;
  binds: number;
  window: number;
  tps: number;
  sourceAddr: string | null;
  enabled: boolean;
  failing: boolean;
  /** The environment's upstream: configured by SMPP_* variables, not on the screen. */
  fromEnvironment: boolean;
};

export type UpstreamInput = {
  name: string;
  kind: UpstreamKind;
  url: string | null;
  systemId: string | null;
  /** undefined: keep the stored one. */
  password: string | undefined;
  binds: number;
  window: number;
  tps: number;
  sourceAddr: string | null;
  enabled: boolean;
};

const sealer = createSealer("smsgw-upstreams");
const passwordContext = (id: number) => `upstream:${id}`;

/** Simulated upstreams exist for test mode's demo only: they would swallow real customers' messages. */
export const simulatorsAllowed = () => getEnv().testMode.sms;

function environmentUpstream(): AdminUpstream {
  const env = getEnv();
  const smpp = env.SMS_TRANSPORT === "smpp" && env.SMPP_URL ? new URL(env.SMPP_URL) : null;
  return {
    ...ENV_UPSTREAM,
    kind: smpp ? "smpp" : "simulator",
    url: smpp ? `${smpp.protocol}//${smpp.host}` : null,
    systemId: smpp ? decodeURIComponent(smpp.username) : null,
    hasPassword: Boolean(smpp?.password),
    binds: env.SMPP_BINDS,
    window: env.SMPP_WINDOW,
    tps: env.SMPP_TPS,
    sourceAddr: env.SMPP_SOURCE_ADDR,
    enabled: true,
    failing: false,
    fromEnvironment: true,
  };
}

type Row = typeof upstreams.$inferSelect;

const present = (row: Row): AdminUpstream => ({
  id: String(row.id),
  name: row.name,
  kind: row.kind,
  url: row.url,
  systemId: row.systemId,
  hasPassword: row.passwordCiphertext !== null,
  binds: row.binds,
  window: row.window,
  tps: row.tps,
  sourceAddr: row.sourceAddr,
  enabled: row.enabled,
  failing: row.failing,
  fromEnvironment: false,
});

/** The environment's upstream first, then the admin's by name. */
export async function listUpstreams(): Promise<AdminUpstream[]> {
  const rows = await getDb().select().from(upstreams).orderBy(asc(upstreams.name)).all();
  return [environmentUpstream(), ...rows.map(present)];
}

async function upstreamRow(id: number): Promise<Row> {
  const row = await getDb().select().from(upstreams).where(eq(upstreams.id, id)).get();
  if (!row) throw new RoutingNotFoundError("upstream");
  return row;
}

export async function getUpstream(id: number): Promise<AdminUpstream> {
  return present(await upstreamRow(id));
}

function checkInput(input: UpstreamInput, storedPassword: boolean): void {
  if (input.name.toLowerCase() === ENV_UPSTREAM.name)
    throw new RoutingInputError("name", `"${ENV_UPSTREAM.name}" is the environment's upstream: choose another name`);
  if (input.kind === "simulator" && !simulatorsAllowed())
    throw new RoutingInputError("kind", "Simulated upstreams exist in test mode only (SMS_TRANSPORT=simulator)");
  if (input.kind !== "smpp") return;
  if (!input.url)
    throw new RoutingInputError("url", "The SMSC's address is required, e.g. smpp://smsc.example.net:2775");
  if (!input.systemId) throw new RoutingInputError("systemId", "The system id is required");
  if (!input.password && !storedPassword) throw new RoutingInputError("password", "The password is required");
}

/** The row's columns for `input`; the password is sealed by the caller once the row's id is known. */
function columnsOf(input: UpstreamInput) {
  const smpp = input.kind === "smpp";
  return {
    name: input.name,
    kind: input.kind,
    url: smpp ? input.url : null,
    systemId: smpp ? input.systemId : null,
    binds: input.binds,
    window: input.window,
    tps: input.tps,
    sourceAddr: input.sourceAddr,
    enabled: input.enabled,
    updatedAt: clock.date(),
  };
}

function duplicateName(error: unknown, name: string): never {
  if (isUniqueViolation(error)) throw new RoutingInputError("name", `An upstream named "${name}" already exists`);
  throw error;
}

export async function createUpstream(input: UpstreamInput): Promise<AdminUpstream> {
  checkInput(input, false);
  const id = await withTx(async (tx) => {
    const { id } = await tx
      .insert(upstreams)
      .values(columnsOf(input))
      .returning({ id: upstreams.id })
      .get()
      .catch((error: unknown) => duplicateName(error, input.name));
    // Sealed with its own id as context, so it is written once the id is known.
    if (input.kind === "smpp" && input.password)
      await tx
        .update(upstreams)
        .set({ passwordCiphertext: sealer.seal(input.password, passwordContext(id)) })
        .where(eq(upstreams.id, id))
        .run();
    return id;
  });
  forgetRouteTable();
  return await getUpstream(id);
}

/** Saves `input`; a password left out keeps the stored one, a simulator keeps none. */
export async function updateUpstream(id: number, input: UpstreamInput): Promise<AdminUpstream> {
  const stored = await upstreamRow(id);
  checkInput(input, stored.kind === "smpp" && stored.passwordCiphertext !== null);
  const passwordCiphertext =
    input.kind !== "smpp" ? null : input.password ? sealer.seal(input.password, passwordContext(id)) : undefined;
  await withTx((tx) =>
    tx
      .update(upstreams)
      .set({ ...columnsOf(input), ...(passwordCiphertext !== undefined && { passwordCiphertext }) })
      .where(eq(upstreams.id, id))
      .run()
      .catch((error: unknown) => duplicateName(error, input.name)),
  );
  forgetRouteTable();
  return await getUpstream(id);
}

export async function setUpstreamEnabled(id: number, enabled: boolean): Promise<AdminUpstream> {
  await upstreamRow(id);
  await withTx((tx) =>
    tx.update(upstreams).set({ enabled, updatedAt: clock.date() }).where(eq(upstreams.id, id)).run(),
  );
  forgetRouteTable();
  return await getUpstream(id);
}

/** Test mode's failover demo: a simulated upstream refuses every submit while `failing`. */
export async function setUpstreamFailing(id: number, failing: boolean): Promise<AdminUpstream> {
  const row = await upstreamRow(id);
  if (row.kind !== "simulator" || !simulatorsAllowed()) throw new RoutingNotFoundError("upstream");
  await withTx((tx) =>
    tx.update(upstreams).set({ failing, updatedAt: clock.date() }).where(eq(upstreams.id, id)).run(),
  );
  forgetRouteTable();
  return await getUpstream(id);
}

function rowConfig(row: Row): UpstreamConfig {
  const base = {
    id: String(row.id),
    name: row.name,
    binds: row.binds,
    window: row.window,
    tps: row.tps,
    sourceAddr: row.sourceAddr ?? getEnv().SMPP_SOURCE_ADDR,
  };
  if (row.kind === "simulator") return { ...base, kind: "simulator", failing: row.failing };
  const password = row.passwordCiphertext ? sealer.open(row.passwordCiphertext, passwordContext(row.id)) : "";
  const host = new URL(row.url!);
  const url = `${host.protocol}//${encodeURIComponent(row.systemId ?? "")}:${encodeURIComponent(password)}@${host.host}`;
  return { ...base, kind: "smpp", url, systemId: row.systemId ?? "", password };
}

/**
 * The admin's enabled upstreams, passwords opened, for the worker (which puts the environment's
 * first). Simulated upstreams only in test mode (a stale row never swallows real messages).
 */
export async function loadUpstreamConfigs(): Promise<UpstreamConfig[]> {
  const rows = await getDb()
    .select()
    .from(upstreams)
    .where(eq(upstreams.enabled, true))
    .orderBy(asc(upstreams.id))
    .all();
  const usable = rows.filter((row) => row.kind === "smpp" || simulatorsAllowed());
  return usable.map(rowConfig);
}

/**
 * Calls `onChange` with the configurations now (`ready`) and whenever what loadUpstreamConfigs gives
 * changes, read every `everyMs` (one small query) or on `check()`: how an admin's edit reaches
 * every worker of every host. A failed read is retried at the next period.
 */
export function watchUpstreamConfigs(onChange: (configs: UpstreamConfig[]) => void, everyMs = 5_000) {
  let last = "";
  const check = async () => {
    const configs = await loadUpstreamConfigs();
    const seen = JSON.stringify(configs);
    if (seen !== last) {
      last = seen;
      onChange(configs);
    }
  };
  const timer = setInterval(() => void check().catch(() => undefined), everyMs);
  timer.unref();
  return { ready: check(), check, stop: () => clearInterval(timer) };
}
