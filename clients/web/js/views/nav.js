// The heading and tab links every page of one report shares.

import { h } from '../dom.js';

const TABS = [
  ['', 'Overview'],
  ['/claims', 'Claims'],
  ['/ifrs', 'IFRS'],
  ['/ask', 'Ask'],
];

/** <nav> of the report's pages, the current one marked with aria-current. */
export function reportNav(reportId, current) {
  const base = `#/reports/${encodeURIComponent(reportId)}`;
  return h(
    'nav',
    { class: 'tabs', 'aria-label': 'Report' },
    h('a', { href: '#/reports' }, '← Reports'),
    TABS.map(([path, label]) =>
      h('a', { href: base + path, 'aria-current': path === current ? 'page' : null }, label),
    ),
  );
}

/** What to show when the id names no report of this organisation. */
export function notFound(view) {
  document.title = 'Report not found · Sibyl';
  view.append(
    h('h1', {}, 'Report not found'),
    h('p', { role: 'alert', class: 'alert' }, 'There is no report with this id in your organisation.'),
    h('p', {}, h('a', { href: '#/reports' }, 'Back to your reports')),
  );
}
