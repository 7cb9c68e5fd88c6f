import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { POSTGRES_FILES, POSTGRES_ONLY_FILES } from "./tests/postgres-files.ts";

export default defineConfig({
  test: {
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/per-file.ts"],
    pool: "forks",
    // One file per core (Vitest's default leaves one core to its main process, which mostly waits):
    // on 2 cores the suite takes 10 minutes instead of 23. `--maxWorkers 1` for a busy machine.
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // React Router's dev server (started by the files that serve HTTP in development) removes and rewrites
    // .react-router/types at every start, so two files starting one at once race on it
    // (remix-run/react-router#15283): that ENOENT or ENOTEMPTY is neither file's failure.
    onUnhandledError: (error) => !/^(ENOENT|ENOTEMPTY)\b.*\.react-router[/\\]types\b/.test(error.message),
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.{ts,tsx}"],
          exclude: POSTGRES_ONLY_FILES,
        },
      },
      // The database-touching integration tests again, each file on a PostgreSQL database of its own.
      // TEST_POSTGRES_FILES (comma-separated globs) tries other files there while they are being converted.
      {
        extends: true,
        test: {
          name: "postgres",
          include: process.env.TEST_POSTGRES_FILES?.split(",") ?? POSTGRES_FILES,
          env: { TEST_ENGINE: "postgres" },
        },
      },
    ],
  },
});
