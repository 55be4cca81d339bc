// Ask: a question about the report; the answer's [n] markers link to citations that open the page.

import { request } from '../api.js';
import { alertBox, fill, h } from '../dom.js';
import { notFound, reportNav } from './nav.js';

export async function render(view, { params, query, fail }) {
  const { report } = await request('ReportHeader', { id: params.id });
  if (!report) return notFound(view);
  document.title = `Ask · ${report.filename} · Sibyl`;
  const question = h('textarea', { id: 'question', name: 'question', rows: 2, required: true }, query.get('q') ?? '');
  const answer = h('section', { class: 'card answer', 'aria-live': 'polite', 'aria-labelledby': 'answer-heading' });

  async function submit(event) {
    event.preventDefault();
    fill(answer, h('h2', { id: 'answer-heading' }, 'Answer'), h('p', {}, 'Thinking…'));
    try {
      const { askReport: result } = await request('AskReport', { reportId: report.id, question: question.value });
      if (result.__typename === 'AskReportError') fill(answer, h('h2', { id: 'answer-heading' }, 'Answer'), alertBox(result.message));
      else showAnswer(answer, report.id, result);
    } catch (error) {
      fill(answer);
      fail(error);
    }
  }

  view.append(
    reportNav(report.id, '/ask'),
    h('h1', {}, `Ask about ${report.filename}`),
    h('form', { class: 'card', onsubmit: submit },
      h('label', { for: 'question' }, 'Your question'),
      question,
      h('p', { class: 'hint' }, 'For example: Which claims were contradicted? What does the report say about scope 3?'),
      h('button', { type: 'submit' }, 'Ask'),
    ),
    answer,
  );
}

function citationHref(reportId, citation) {
  const base = `#/reports/${encodeURIComponent(reportId)}/pages/${citation.pageNumber}`;
  return citation.claimId ? `${base}?highlight=${encodeURIComponent(citation.claimId)}` : base;
}

function showAnswer(section, reportId, result) {
  const parts = result.answer.split(/(\[\d+\])/).map((part) => {
    const marker = /^\[(\d+)\]$/.exec(part);
    const citation = marker && result.citations[marker[1] - 1];
    return citation?.pageNumber ? h('a', { href: citationHref(reportId, citation), class: 'marker', 'aria-label': `citation ${marker[1]}, page ${citation.pageNumber}` }, part) : part;
  });
  fill(
    section,
    h('h2', { id: 'answer-heading' }, 'Answer'),
    h('p', { class: 'answer-text' }, parts),
    result.caveats.length ? h('ul', { class: 'warnings' }, result.caveats.map((c) => h('li', {}, c))) : null,
    h('h3', {}, 'Citations'),
    h('ol', { class: 'citations', id: 'citations' },
      result.citations.map((citation, i) =>
        h('li', { id: `citation-${i + 1}` },
          h('q', {}, citation.excerpt),
          ' ',
          citation.pageNumber ? h('a', { href: citationHref(reportId, citation), class: 'open-page' }, `open page ${citation.pageNumber}`) : null,
        ),
      ),
    ),
    h('p', { class: 'hint' }, `Answer written by: ${result.method}.`),
  );
}
