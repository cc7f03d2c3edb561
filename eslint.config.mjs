// eslint.config.mjs: lint rules for the report's JavaScript (share/report) and the browser
// test (tests/browser). `npm run lint`.
import js from "@eslint/js";

const browser = Object.fromEntries(
  [
    "window", "document", "console", "getComputedStyle", "requestAnimationFrame",
    "performance", "Intl", "navigator", "CSS", "fetch", "EventSource", "setTimeout",
    "clearTimeout", "location", "history", "URLSearchParams",
  ].map((name) => [name, "readonly"]),
);
const node = Object.fromEntries(
  ["process", "console", "URL", "setTimeout"].map((name) => [name, "readonly"]),
);

export default [
  js.configs.recommended,
  {
    files: ["share/report/**/*.js"],
    languageOptions: { ecmaVersion: 2020, sourceType: "script", globals: browser },
  },
  {
    files: ["tests/browser/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...node, ...browser } },
  },
];
