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
    // Only the two classic hook rules: the plugin's React Compiler rules (set-state-in-effect, refs, ...) are written
    // for compiled components, and this app's after-hydration effects (useHydrated, toasts, clipboard) are deliberate.
    files: ["**/*.tsx", "app/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  prettier,
);
