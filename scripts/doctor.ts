// npm run doctor -- [--env-file /etc/smsgw/env]: checks a production configuration and says what
// is missing or unsafe; exit status 1 when something is unsafe (docs/deployment.md#checking-the-configuration).
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { diagnose, type Level, readEnvFile } from "./doctor-checks.ts";

const { values: args } = parseArgs({ options: { "env-file": { type: "string" } } });
const source = args["env-file"]
  ? { ...process.env, ...readEnvFile(resolve(process.env.INIT_CWD ?? process.cwd(), args["env-file"])) }
  : process.env;

const LABEL: Record<Level, string> = { ok: "ok    ", warn: "WARN  ", unsafe: "UNSAFE" };
const findings = await diagnose(source);
for (const { level, topic, message } of findings) console.log(`${LABEL[level]}  ${topic}: ${message}`);
const unsafe = findings.filter((f) => f.level === "unsafe").length;
const warnings = findings.filter((f) => f.level === "warn").length;
console.log(
  unsafe
    ? `\n${unsafe} unsafe, ${warnings} to look at: not ready for production.`
    : `\nNothing unsafe${warnings ? `; ${warnings} to look at` : ""}.`,
);
process.exit(unsafe ? 1 : 0);
