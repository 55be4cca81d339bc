// One page of a report as an image, optionally with a claim highlighted (Ask's citations open it).

import { pageImage, request } from '../api.js';
import { alertBox, h } from '../dom.js';
import { notFound, reportNav } from './nav.js';

export async function render(view, { params, query }) {
  const { report } = await request('ReportHeader', { id: params.id });
  if (!report) return notFound(view);
  const page = Number(params.page);
  const highlight = query.get('highlight');
  document.title = `Page ${page} · ${report.filename} · Sibyl`;
  const base = `#/reports/${encodeURIComponent(report.id)}/pages/`;
  view.append(
    reportNav(report.id, null),
    h('h1', {}, `${report.filename}, page ${page} of ${report.pageCount}`),
    h('nav', { class: 'pager', 'aria-label': 'Pages' },
      page > 1 ? h('a', { href: `${base}${page - 1}` }, 'Previous page') : null,
      page < report.pageCount ? h('a', { href: `${base}${page + 1}` }, 'Next page') : null,
      highlight ? h('a', { href: `#/reports/${encodeURIComponent(report.id)}/claims/${encodeURIComponent(highlight)}` }, 'Open the highlighted claim') : null,
    ),
  );
  if (!(page >= 1 && page <= report.pageCount)) {
    view.append(alertBox(`The report has pages 1 to ${report.pageCount}.`));
    return undefined;
  }
  const url = await pageImage(report.id, page, { highlight });
  view.append(h('img', { src: url, id: 'page-image', class: 'page-image', alt: `Page ${page} of ${report.filename}${highlight ? ', the cited claim highlighted' : ''}` }));
  return () => URL.revokeObjectURL(url);
}
