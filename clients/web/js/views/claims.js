// Claims: filters and sorting kept in the URL, one page of the connection at a time, and the
// verdict counts as an SVG bar chart.

import { request } from '../api.js';
import { badge, h, table, words } from '../dom.js';
import { href } from '../router.js';
import { verdictChart } from '../chart.js';
import { notFound, reportNav } from './nav.js';

const CHOICES = {
  type: ['GEOGRAPHIC', 'QUANTITATIVE', 'LEGAL_GOVERNANCE', 'STRATEGIC', 'ENVIRONMENTAL'],
  priority: ['HIGH', 'MEDIUM', 'LOW'],
  verdict: ['VERIFIED', 'UNVERIFIED', 'CONTRADICTED', 'INSUFFICIENT_EVIDENCE'],
  agent: ['geography', 'legal', 'news_media', 'academic', 'data_metrics'],
};
const PAGE_SIZES = ['50', '200'];

export async function render(view, { params, query }) {
  const filters = Object.fromEntries(Object.keys(CHOICES).map((name) => [name, query.get(name) || null]));
  const orderBy = query.get('order') === 'PRIORITY' ? 'PRIORITY' : 'PAGE';
  const first = Number(PAGE_SIZES.includes(query.get('size')) ? query.get('size') : 50);
  const [{ report }, counts] = await Promise.all([
    request('ClaimList', { id: params.id, first, after: query.get('after'), orderBy, type: filters.type, priority: filters.priority, verdict: filters.verdict, agent: filters.agent }),
    request('VerdictCounts', { id: params.id }),
  ]);
  if (!report) return notFound(view);
  document.title = `Claims · ${report.filename} · Sibyl`;
  const base = `/reports/${params.id}/claims`;
  const current = { ...filters, order: orderBy === 'PRIORITY' ? 'PRIORITY' : null, size: first === 50 ? null : String(first) };

  const started = performance.now();
  const claims = report.claims.edges.map(({ node }) => node);
  const rows = claims.map((claim) => [
    claim.sourcePage,
    words(claim.claimType),
    words(claim.priority),
    badge(claim.verdict?.verdict ?? 'PENDING'),
    [...new Set(claim.routing.map((r) => r.agent))].join(', '),
    h('a', { href: `#${base}/${encodeURIComponent(claim.id)}` }, claim.text),
  ]);
  const claimTable = rows.length
    ? table(`Claims ${claims.length ? `(${claims.length} shown of ${report.claims.totalCount})` : ''}`, ['Page', 'Type', 'Priority', 'Verdict', 'Agents', 'Claim'], rows, { id: 'claim-table', class: 'stack' })
    : h('p', { id: 'claim-table-empty' }, 'No claim matches these filters.');
  view.append(
    reportNav(params.id, '/claims'),
    h('h1', {}, `Claims of ${report.filename}`),
    h('div', { class: 'grid' }, filterForm(base, current), h('section', { class: 'card', 'aria-labelledby': 'chart-heading' }, h('h2', { id: 'chart-heading' }, 'Verdicts'), verdictChart(counts.report, base))),
    claimTable,
    pager(base, current, query.get('after'), report.claims.pageInfo),
  );
  performance.measure('claims-table', { start: started });
}

function filterForm(base, current) {
  const select = (name, label, options) =>
    h('div', { class: 'field' },
      h('label', { for: `filter-${name}` }, label),
      h('select', { id: `filter-${name}`, name }, options.map(([value, text]) => h('option', { value, selected: (current[name] ?? '') === value }, text))),
    );
  const any = (name) => [['', 'Any'], ...CHOICES[name].map((value) => [value, words(value)])];
  const form = h(
    'form',
    { class: 'card filters', 'aria-labelledby': 'filters-heading' },
    h('h2', { id: 'filters-heading' }, 'Filter and sort'),
    select('type', 'Type', any('type')),
    select('priority', 'Priority', any('priority')),
    select('verdict', 'Verdict', any('verdict')),
    select('agent', 'Agent', any('agent')),
    select('order', 'Sort by', [['', 'Page'], ['PRIORITY', 'Priority, then page']]),
    select('size', 'Claims per page', [['', '50'], ['200', '200']]),
    h('button', { type: 'submit' }, 'Apply'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    location.hash = href(base, Object.fromEntries(new FormData(form)));
  });
  return form;
}

function pager(base, current, after, pageInfo) {
  return h('nav', { class: 'pager', 'aria-label': 'Claim pages' },
    after ? h('a', { href: href(base, current) }, 'First page') : null,
    pageInfo.hasNextPage ? h('a', { href: href(base, { ...current, after: pageInfo.endCursor }) }, 'Next page') : null,
  );
}
