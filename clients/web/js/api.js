// The GraphQL API over HTTP: named operations read from /web/operations/<Name>.graphql, the API key
// from sessionStorage, uploads as GraphQL multipart requests, and page images as blob URLs.

const KEY_NAME = 'sibyl.apiKey';
const documents = new Map();

export const apiKey = {
  get: () => sessionStorage.getItem(KEY_NAME),
  set: (key) => sessionStorage.setItem(KEY_NAME, key),
  clear: () => sessionStorage.removeItem(KEY_NAME),
};

/** A failed request. `kind`: auth (bad key), rate (rate limit), graphql, http or network. */
export class ApiError extends Error {
  constructor(kind, message, { code = null, retryAfter = null } = {}) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** The text of operation `name`, fetched once. */
export function operation(name) {
  if (!documents.has(name)) {
    documents.set(
      name,
      fetch(`/web/operations/${name}.graphql`).then((response) => {
        if (!response.ok) throw new ApiError('http', `The operation ${name} could not be loaded.`);
        return response.text();
      }),
    );
  }
  return documents.get(name);
}

function authHeaders(key = apiKey.get()) {
  return key ? { Authorization: `Bearer ${key}` } : {};
}

/**
 * Run operation `name`; its `data`, or an ApiError. `files` maps variable paths
 * ('variables.file', 'variables.input.file') to File objects and makes it a multipart request.
 */
export async function request(name, variables = {}, { files = null, key } = {}) {
  const query = await operation(name);
  const headers = authHeaders(key);
  let body;
  if (files) {
    body = new FormData();
    const map = Object.fromEntries(Object.keys(files).map((path, i) => [String(i), [path]]));
    body.append('operations', JSON.stringify({ query, operationName: name, variables }));
    body.append('map', JSON.stringify(map));
    Object.values(files).forEach((file, i) => body.append(String(i), file, file.name));
    headers['Apollo-Require-Preflight'] = 'true';
  } else {
    body = JSON.stringify({ query, operationName: name, variables });
    headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch('/graphql', { method: 'POST', headers, body });
  } catch {
    throw new ApiError('network', 'The server cannot be reached. Check that it is running, then retry.');
  }
  return dataOf(response);
}

async function dataOf(response) {
  const body = await response.json().catch(() => null);
  const first = body?.errors?.[0];
  const code = first?.extensions?.code ?? null;
  if (response.status === 401 || response.status === 403 || code === 'UNAUTHENTICATED') {
    throw new ApiError('auth', first?.message ?? 'The API key was not accepted.', { code });
  }
  if (response.status === 429 || code === 'RATE_LIMITED') {
    const retryAfter = Number(response.headers.get('Retry-After') ?? first?.extensions?.retryAfterSeconds);
    throw new ApiError('rate', rateMessage(retryAfter), { code, retryAfter });
  }
  if (first) throw new ApiError('graphql', first.message, { code });
  if (!response.ok || !body) {
    throw new ApiError('http', `The server answered ${response.status}; please retry in a moment.`);
  }
  return body.data;
}

export const rateMessage = (seconds) =>
  `Too many requests for this API key. Wait ${Number.isFinite(seconds) ? `${seconds} s` : 'a moment'} and try again.`;

/** Page `page` of a report as a PNG blob URL (revoke it when done); `highlight` is a claim id. */
export async function pageImage(reportId, page, { highlight = null, scale = null } = {}) {
  const query = new URLSearchParams();
  if (highlight) query.set('highlight', highlight);
  if (scale) query.set('scale', scale);
  const search = String(query);
  const url = `/reports/${encodeURIComponent(reportId)}/pages/${page}.png${search ? `?${search}` : ''}`;
  const response = await fetch(url, { headers: authHeaders() });
  if (response.status === 401 || response.status === 403) throw new ApiError('auth', 'The API key was not accepted.');
  if (response.status === 429) throw new ApiError('rate', rateMessage(Number(response.headers.get('Retry-After'))));
  if (!response.ok) throw new ApiError('http', `Page ${page} is not available (HTTP ${response.status}).`);
  return URL.createObjectURL(await response.blob());
}

/** Offer `text` as a file download named `filename`. */
export function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
