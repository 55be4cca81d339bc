// The public registry entities matched to a report's company, with confirm / reject for each.

import { request } from '../api.js';
import { alertBox, badge, fill, h, table, words } from '../dom.js';

const REGISTRY_NAMES = { SBTI: 'SBTi', NET_ZERO_TRACKER: 'Net Zero Tracker', UK_ETS: 'UK ETS', EPA_GHGRP: 'US EPA GHGRP', NGER: 'NGER' };
const registryName = (kind) => REGISTRY_NAMES[kind] ?? words(kind);

export function registrySection(reportId, fail) {
  const section = h('section', { class: 'card', 'aria-labelledby': 'registry-heading' });
  const status = h('div', { role: 'status', class: 'form-status' });
  const show = async () => {
    const { report } = await request('RegistryMatches', { id: reportId });
    const matches = report?.registryMatches ?? [];
    const act = (name, match, label) =>
      h('button', {
        type: 'button',
        'aria-label': `${label} ${match.entityName} (${registryName(match.registry)})`,
        onclick: async () => {
          try {
            const outcome = Object.values(await request(name, { reportId, entityKey: match.entityKey }))[0];
            if (outcome.__typename.endsWith('Error')) fill(status, alertBox(outcome.message));
            else fill(status, `${label}ed ${match.entityName}: the next analysis uses this.`);
            await show();
          } catch (error) {
            fail(error);
          }
        },
      }, label);
    const rows = matches.map((match) => [
      registryName(match.registry),
      match.entityName,
      `${words(match.basis)} (${Math.round(match.confidence * 100)}%)`,
      match.snapshotDate ?? match.period ?? '—',
      match.records,
      match.decision ? badge(match.decision) : match.certain ? 'certain' : 'uncertain',
      match.used ? 'yes' : 'no',
      h('span', { class: 'actions' },
        match.decision === 'CONFIRMED' ? null : act('ConfirmRegistryMatch', match, 'Confirm'),
        match.decision === 'REJECTED' ? null : act('RejectRegistryMatch', match, 'Reject')),
    ]);
    fill(
      section,
      h('h2', { id: 'registry-heading' }, `Registry matches (${matches.length})`),
      h('p', { class: 'hint' }, 'Public registries (SBTi, Net Zero Tracker, UK ETS, US EPA GHGRP, NGER) matched to the company. Certain and confirmed matches decide claims; confirm or reject uncertain ones, then re-run the analysis.'),
      rows.length
        ? table('Registry entities matched to the company', ['Registry', 'Entity', 'Basis', 'Snapshot', 'Records', 'Match', 'Used', 'Action'], rows, { id: 'registry-table', class: 'stack' })
        : h('p', {}, 'No registry entity matches the company (or no registry is imported).'),
      status,
    );
  };
  show().catch(fail);
  return section;
}
