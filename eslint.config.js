// ESLint finds mistakes; Prettier owns formatting (eslint-config-prettier, last, turns off every rule that would fight it).
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import prettier from "eslint-config-prettier";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  { ignores: ["node_modules/", "build/", ".react-router/", ".tmp/", "data/", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // `const { secret: _secret, ...rest } = row` is how the code drops fields from an object.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Every database call is a promise (decision 123): one left unawaited would run outside the
    // transaction it was written in, or lose its error. Type-aware, so these two rules read the types.
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // The raw connection and its synchronous statements stay in app/db (decision 123); the engine's
    // own packages are kept there by dependency-cruiser's engine-behind-app-db rule.
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "worker/**/*.ts"],
    ignores: ["app/db/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "#app/db/client.server.ts",
              importNames: ["getSqlite", "prepared", "onConnection"],
              message: "Synchronous database access stays in app/db: use the executor (getDb(), withTx(), read()).",
            },
          ],
        },
      ],
    },
  },
  {
    // Only the two classic hook rules: the plugin's React Compiler rules (set-state-in-effect, refs, ...) are written
    // for compiled components, and this app's after-hydration effects (useHydrated, toasts, clipboard) are deliberate.
    files: ["**/*.tsx", "app/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  prettier,
);
