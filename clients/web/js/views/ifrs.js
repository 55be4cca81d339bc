// IFRS S1/S2: each paragraph by pillar, with disclosure coverage and, apart from it, how the claims
// that speak to it held up; and the key disclosures the report never makes (report-level gaps).

import { request } from '../api.js';
import { badge, h, table } from '../dom.js';
import { notFound, reportNav } from './nav.js';

const PILLARS = [
  ['governance', 'Governance'],
  ['strategy', 'Strategy'],
  ['risk_management', 'Risk management'],
  ['metrics_targets', 'Metrics and targets'],
  ['general', 'General requirements'],
];
const pillarOf = (paragraph) => paragraph.pillar ?? 'general';

export async function render(view, { params }) {
  const { report } = await request('IfrsCompliance', { id: params.id });
  if (!report) return notFound(view);
  document.title = `IFRS · ${report.filename} · Sibyl`;
  view.append(reportNav(report.id, '/ifrs'), h('h1', {}, `IFRS S1/S2 coverage of ${report.filename}`));
  const paragraphs = report.analysis?.ifrsCompliance ?? [];
  if (!paragraphs.length) {
    view.append(h('p', {}, report.analysis?.status === 'COMPLETED' ? 'No IFRS paragraph was mapped.' : 'The IFRS summary is filled when the analysis completes.'));
    return;
  }
  const gaps = paragraphs.filter((p) => p.reportGap);
  view.append(
    h('p', { class: 'hint' }, 'Disclosure coverage says whether the report addresses what a paragraph asks; the claims column says whether what it says held up. They are separate questions.'),
    h('section', { class: 'card', 'aria-labelledby': 'gaps-heading' },
      h('h2', { id: 'gaps-heading' }, `Disclosure gaps (${gaps.length})`),
      gaps.length
        ? h('ul', { id: 'ifrs-gaps' }, gaps.map((p) => h('li', {}, `${p.paragraphId}: a key disclosure not found in the report's text`)))
        : h('p', {}, 'No key IFRS S2 disclosure is missing from the report.'),
    ),
    ...PILLARS.map(([pillar, title]) => [pillar, title, paragraphs.filter((p) => pillarOf(p) === pillar)])
      .filter(([, , own]) => own.length)
      .map(([pillar, title, own]) => pillarSection(pillar, title, own)),
  );
}

const byNumber = (a, b) => a.paragraphId.localeCompare(b.paragraphId, 'en', { numeric: true });

function pillarSection(pillar, title, paragraphs) {
  const rows = paragraphs.toSorted(byNumber).map((p) => [
    h('span', { class: p.reportGap ? 'gap' : null, title: p.title ?? '' }, p.title ? `${p.paragraphId} ${p.title}` : p.paragraphId),
    badge(p.disclosureCoverage),
    p.claimsAssessed,
    badge(p.claimsStanding),
    `${p.claims} (${p.verified} verified, ${p.contradicted} contradicted, ${p.insufficientEvidence} insufficient, ${p.unverified} unverified)`,
  ]);
  return h('section', { class: 'card', 'data-pillar': pillar, 'aria-labelledby': `pillar-${pillar}` },
    h('h2', { id: `pillar-${pillar}` }, title),
    table(`${title} paragraphs`, ['Paragraph', 'Disclosure', 'Assessed claims', 'Claims standing', 'Claims and verdicts'], rows, { class: 'stack' }),
  );
}
