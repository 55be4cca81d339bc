// The verdict counts as a horizontal SVG bar chart; each bar links to the claims with that verdict.

import { h, words } from './dom.js';
import { href } from './router.js';

const BARS = [
  ['VERIFIED', 'verified'],
  ['CONTRADICTED', 'contradicted'],
  ['INSUFFICIENT_EVIDENCE', 'insufficientEvidence'],
  ['UNVERIFIED', 'unverified'],
];
const ROW = 30;
const LABEL = 150;
const WIDTH = 420;

/** `counts` has {verified: {totalCount}, …}, as the VerdictCounts operation returns it. */
export function verdictChart(counts, claimsPath) {
  const values = BARS.map(([label, key]) => [label, counts?.[key]?.totalCount ?? 0]);
  const most = Math.max(1, ...values.map(([, n]) => n));
  const summary = values.map(([label, n]) => `${n} ${words(label)}`).join(', ');
  return h(
    'svg:svg',
    { viewBox: `0 0 ${WIDTH} ${ROW * BARS.length}`, class: 'chart', role: 'img', 'aria-label': `Verdicts: ${summary}`, id: 'verdict-chart' },
    values.map(([label, n], i) =>
      h('svg:a', { href: href(claimsPath, { verdict: label }), 'aria-label': `${n} ${words(label)}: show these claims` },
        h('svg:text', { x: 0, y: i * ROW + 19, class: 'chart-label' }, words(label)),
        h('svg:rect', { x: LABEL, y: i * ROW + 6, height: 18, width: Math.max(2, ((WIDTH - LABEL - 40) * n) / most), class: `bar bar-${label.toLowerCase()}` }),
        h('svg:text', { x: LABEL + ((WIDTH - LABEL - 40) * n) / most + 6, y: i * ROW + 19, class: 'chart-count' }, n),
      ),
    ),
  );
}
