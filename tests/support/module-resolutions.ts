// Preloaded (`node --import`) into the budgets test's web and worker: appends every module
// resolution (static import, import(), require(), of a module loaded before or not) to the file
// MODULE_RESOLUTIONS_LOG names, one line each, so the test sees any made while a path runs
// (decision 113: none on the hot path).
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const log = process.env.MODULE_RESOLUTIONS_LOG;
if (log) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      appendFileSync(log, `${specifier} from ${context.parentURL ?? "the command line"}\n`);
      return nextResolve(specifier, context);
    },
  });
}
