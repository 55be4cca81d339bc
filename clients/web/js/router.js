// Hash routing: '#/reports/<id>/claims/<claimId>?verdict=VERIFIED' → a view and its parameters.

const routes = [];

/** Register `pattern` ('/reports/:id') with a function that loads its view module. */
export function route(pattern, load) {
  routes.push({ parts: pattern.split('/').filter(Boolean), load });
}

/** The route matching `hash`, its named parameters and its query, or null. */
export function match(hash) {
  const [path, search = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  for (const candidate of routes) {
    if (candidate.parts.length !== parts.length) continue;
    const params = {};
    const fits = candidate.parts.every((part, i) =>
      part.startsWith(':') ? ((params[part.slice(1)] = parts[i]), true) : part === parts[i],
    );
    if (fits) return { load: candidate.load, params, query: new URLSearchParams(search) };
  }
  return null;
}

/** '#/reports/x/claims' plus a query without its empty values. */
export function href(path, query = {}) {
  const search = String(new URLSearchParams(Object.entries(query).filter(([, value]) => value)));
  return `#${path}${search ? `?${search}` : ''}`;
}

export const go = (path, query) => {
  location.hash = href(path, query);
};
