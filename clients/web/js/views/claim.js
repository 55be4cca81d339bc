// One claim: the claim, its page with the claim highlighted, the verdict and its reasoning, the
// findings by pass and agent with their sources, and the routing history.

import { pageImage, request } from '../api.js';
import { badge, h, table, words } from '../dom.js';
import { notFound, reportNav } from './nav.js';

export async function render(view, { params, fail }) {
  const { node: claim } = await request('ClaimDetail', { id: params.claimId });
  if (!claim?.text) return notFound(view);
  document.title = `Claim on page ${claim.sourcePage} · Sibyl`;
  const figure = h('figure', { class: 'page-figure' }, h('figcaption', {}, `Page ${claim.sourcePage}, the claim highlighted`));
  view.append(
    reportNav(claim.report.id, '/claims'),
    h('p', {}, h('a', { href: `#/reports/${encodeURIComponent(claim.report.id)}/claims` }, '← All claims')),
    h('h1', {}, `Claim on page ${claim.sourcePage}`),
    h('div', { class: 'claim-layout' },
      h('div', {},
        h('section', { class: 'card', 'aria-labelledby': 'claim-heading' },
          h('h2', { id: 'claim-heading' }, 'The claim'),
          h('blockquote', { class: 'claim-text' }, claim.text),
          h('dl', { class: 'facts' },
            h('dt', {}, 'Type'), h('dd', {}, words(claim.claimType)),
            h('dt', {}, 'Priority'), h('dd', {}, words(claim.priority)),
            h('dt', {}, 'IFRS'), h('dd', {}, claim.ifrsParagraphs.map((p) => p.paragraphId).join(', ') || '—'),
          ),
          claim.reasoning ? h('p', { class: 'hint' }, claim.reasoning) : null,
        ),
        verdictSection(claim),
      ),
      figure,
    ),
    findingsSection(claim),
    routingSection(claim),
  );
  let url = null;
  try {
    url = await pageImage(claim.report.id, claim.sourcePage, { highlight: claim.id });
    figure.prepend(h('img', { src: url, id: 'page-image', alt: `Page ${claim.sourcePage} of the report, with the claim “${claim.text}” highlighted` }));
  } catch (error) {
    fail(error);
  }
  return () => url && URL.revokeObjectURL(url);
}

function verdictSection(claim) {
  const verdict = claim.verdict;
  return h('section', { class: 'card', 'aria-labelledby': 'verdict-heading' },
    h('h2', { id: 'verdict-heading' }, 'Verdict'),
    verdict
      ? [
          h('p', { id: 'claim-verdict' }, badge(verdict.verdict), verdict.confidence != null ? ` confidence ${verdict.confidence.toFixed(2)}` : '', `, pass ${verdict.iteration + 1}`),
          h('p', { class: 'reasoning' }, verdict.reasoning),
          verdict.decidingSources.length
            ? [h('h3', {}, 'Deciding sources'), h('ul', { class: 'sources', id: 'deciding-sources' }, verdict.decidingSources.map(sourceItem))]
            : null,
          claim.verdicts.length > 1 ? h('p', {}, 'By pass: ', claim.verdicts.map((v) => `${v.iteration + 1}: ${words(v.verdict)}`).join(' · ')) : null,
        ]
      : h('p', {}, 'No verdict yet.'),
  );
}

const QUOTE_CHECK = { true: 'quote found in the source', false: 'quote NOT found in the source', null: 'quote not checked' };

function sourceItem(source) {
  const name = source.title || source.publisher;
  return h('li', {},
    // A deciding source says which way it bears on the claim; a finding's sources do not.
    source.side ? [badge(source.side), ' '] : null,
    source.url && /^https?:/.test(source.url) ? h('a', { href: source.url, rel: 'noopener noreferrer', target: '_blank' }, name) : h('strong', {}, name),
    h('span', { class: 'meta' }, [
      source.publisher !== name ? source.publisher : null,
      source.tier ? `tier ${source.tier}` : null,
      source.publishedDate,
      source.pages?.length ? `pages ${source.pages.join(', ')}` : null,
      source.url ? QUOTE_CHECK[source.quoteVerified ?? null] : null,
    ].filter(Boolean).join(' · ')),
    source.quote ? h('q', {}, source.quote) : source.side && source.summary ? h('p', { class: 'hint' }, source.summary) : null,
  );
}

function findingsSection(claim) {
  const passes = Map.groupBy(claim.findings, (f) => f.iteration);
  return h('section', { class: 'card', 'aria-labelledby': 'findings-heading' },
    h('h2', { id: 'findings-heading' }, `Findings (${claim.findings.length})`),
    [...passes].map(([pass, findings]) => [
      h('h3', {}, `Pass ${pass + 1}`),
      [...Map.groupBy(findings, (f) => f.agent)].map(([agent, own]) =>
        h('div', { class: 'agent-findings' },
          h('h4', {}, words(agent)),
          h('ul', { class: 'findings' }, own.map(findingItem)),
        ),
      ),
    ]),
  );
}

function findingItem(finding) {
  const details = finding.details ?? {};
  const quoteVerified = details.quote_verified ?? null;
  // Each agent words its sources a little differently: web and library sources, IFRS paragraphs, report pages.
  const sources = (details.sources ?? []).map((s) => ({
    url: s.url,
    title: [s.paragraph_id, s.title].filter(Boolean).join(' ') || (s.report_page ? `Report page ${s.report_page}` : null),
    publisher: s.domain ?? s.source_type ?? s.provider ?? (s.report_page ? 'the report' : 'source'),
    tier: s.tier,
    publishedDate: s.published_date,
    quote: s.snippet,
    pages: s.report_page ? [s.report_page] : [],
    quoteVerified,
  }));
  const stance = { true: 'supports', false: 'contradicts', null: 'takes no side' }[finding.supportsClaim ?? null];
  return h('li', {},
    h('p', {}, h('span', { class: `badge badge-${finding.evidenceKind.toLowerCase()}` }, words(finding.evidenceKind)), ` ${stance} — ${finding.summary}`),
    sources.length ? h('ul', { class: 'sources' }, sources.map(sourceItem)) : null,
  );
}

function routingSection(claim) {
  return h('section', { class: 'card', 'aria-labelledby': 'routing-heading' },
    h('h2', { id: 'routing-heading' }, 'Routing history'),
    claim.routing.length
      ? table('Which agents the orchestrator sent the claim to', ['Pass', 'Agent', 'How', 'Why'], claim.routing.map((r) => [r.iteration + 1, words(r.agent), r.method, r.reasoning ?? '']), { class: 'stack' })
      : h('p', {}, 'Not routed yet.'),
  );
}
