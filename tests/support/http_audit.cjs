// Runs graphql-http's server audits against one URL and prints every result as JSON on stdout.
// Usage: node http_audit.cjs <path of graphql-http-audits.js> <url>
// AUDIT_HEADERS (a JSON object) holds headers added to every request, such as the API key.
'use strict';

const { auditServer } = require(process.argv[2]);

const url = process.argv[3];
const extra = JSON.parse(process.env.AUDIT_HEADERS || '{}');

function fetchFn(input, init = {}) {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return fetch(input, { ...init, headers });
}

async function described(result) {
  const { id, name, status, reason } = result;
  if (!result.response) return { id, name, status };
  const response = result.response;
  const body = await response.text().catch(() => '');
  return {
    id,
    name,
    status,
    reason,
    response: {
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: body.slice(0, 500),
    },
  };
}

(async () => {
  const results = await auditServer({ url, fetchFn });
  process.stdout.write(JSON.stringify(await Promise.all(results.map(described))) + '\n');
})().catch((error) => {
  process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
