// Copy-paste examples of one API request in curl, Node, Python and PHP, generated from the
// operation (see reference.server.ts), so every endpoint has all four and none drifts from the API.

export const LANGUAGES = [
  { id: "curl", label: "curl" },
  { id: "node", label: "Node.js" },
  { id: "python", label: "Python" },
  { id: "php", label: "PHP" },
] as const;
/** What the examples hold until a signed-in reader, recently confirmed, asks for their own key. */
export const KEY_PLACEHOLDER = "YOUR_API_KEY";

export type LanguageId = (typeof LANGUAGES)[number]["id"];

export type ExampleRequest = {
  method: string;
  /** Absolute, with path and query parameters filled in. */
  url: string;
  /** Needs the API key. */
  auth: boolean;
  /** The JSON body, if the operation takes one. */
  body?: unknown;
};

const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** `key` is put in double quotes as is: a shell expression such as `$SMSGW_API_KEY` works too. */
export function curlExample(request: ExampleRequest, key: string): string {
  const lines = [
    `curl -sS --fail-with-body${request.method === "GET" ? "" : ` -X ${request.method}`} "${request.url}"`,
  ];
  if (request.auth) lines.push(`-H "Authorization: Bearer ${key}"`);
  if (request.body !== undefined)
    lines.push(`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(request.body))}`);
  return lines.join(" \\\n  ");
}

const indentAfterFirst = (text: string, by: string) => text.replaceAll("\n", `\n${by}`);

function nodeExample(request: ExampleRequest, key: string): string {
  const headers = [
    ...(request.auth ? [`Authorization: ${JSON.stringify(`Bearer ${key}`)},`] : []),
    ...(request.body !== undefined ? [`"Content-Type": "application/json",`] : []),
  ];
  const options = [
    `method: ${JSON.stringify(request.method)},`,
    ...(headers.length ? ["headers: {", ...headers.map((h) => `  ${h}`), "},"] : []),
    ...(request.body !== undefined ? [`body: JSON.stringify(${JSON.stringify(request.body, null, 2)}),`] : []),
  ];
  const call = `await fetch(${JSON.stringify(request.url)}, {\n${options.map((o) => `  ${indentAfterFirst(o, "  ")}`).join("\n")}\n})`;
  return [
    "// Node.js 18 or later, in an ES module (fetch is built in).",
    `const response = ${call};`,
    "console.log(response.status, await response.json());",
  ].join("\n");
}

/** A JSON value as a Python literal (true/false/null are True/False/None there). */
function pythonLiteral(value: unknown, indent = ""): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pythonLiteral(v, inner)},`).join("\n")}\n${indent}}`;
}

function pythonExample(request: ExampleRequest, key: string): string {
  const args = [
    `${JSON.stringify(request.url)},`,
    ...(request.auth ? [`headers={"Authorization": ${JSON.stringify(`Bearer ${key}`)}},`] : []),
    ...(request.body !== undefined ? [`json=${pythonLiteral(request.body, "    ")},`] : []),
    "timeout=30,",
  ];
  return [
    "import requests",
    "",
    `response = requests.${request.method.toLowerCase()}(`,
    ...args.map((arg) => `    ${arg}`),
    ")",
    "print(response.status_code, response.json())",
  ].join("\n");
}

const phpString = (text: string) => `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;

function phpExample(request: ExampleRequest, key: string): string {
  const headers = [
    ...(request.auth ? [`${phpString(`Authorization: Bearer ${key}`)},`] : []),
    ...(request.body !== undefined ? [`'Content-Type: application/json',`] : []),
  ];
  const body =
    request.body === undefined
      ? []
      : // A nowdoc holds the JSON exactly as sent: nothing in it is interpreted by PHP.
        ["$body = <<<'JSON'", JSON.stringify(request.body, null, 2), "JSON;", ""];
  return [
    "<?php",
    "// PHP 7.3 or later with the curl extension.",
    ...body,
    `$curl = curl_init(${phpString(request.url)});`,
    "curl_setopt_array($curl, [",
    `    CURLOPT_CUSTOMREQUEST => ${phpString(request.method)},`,
    ...(headers.length ? ["    CURLOPT_HTTPHEADER => [", ...headers.map((h) => `        ${h}`), "    ],"] : []),
    ...(request.body !== undefined ? ["    CURLOPT_POSTFIELDS => $body,"] : []),
    "    CURLOPT_RETURNTRANSFER => true,",
    "]);",
    "$answer = curl_exec($curl);",
    "$status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);",
    "curl_close($curl);",
    "echo $status, ' ', $answer, PHP_EOL;",
  ].join("\n");
}

const RENDERERS: Record<LanguageId, (request: ExampleRequest, key: string) => string> = {
  curl: curlExample,
  node: nodeExample,
  python: pythonExample,
  php: phpExample,
};

/** The request in every language, in LANGUAGES order, with `key` as the API key. */
export function codeExamples(request: ExampleRequest, key: string): { language: LanguageId; code: string }[] {
  return LANGUAGES.map(({ id }) => ({ language: id, code: RENDERERS[id](request, key) }));
}
