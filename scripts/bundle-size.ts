// npm run size [-- --json]: the JavaScript each page downloads (gzip), from the built app; builds
// first when the build is older than its sources.
import { buildIfStale } from "./build-if-stale.ts";
import { pagesJs, sizeReport } from "./page-js.ts";

if (!buildIfStale((line) => console.error(`[size] ${line}`))) process.exit(1);
const pages = pagesJs();
if (process.argv.includes("--json")) console.log(JSON.stringify(pages.map(({ files: _files, ...page }) => page)));
else console.log(sizeReport(pages));
