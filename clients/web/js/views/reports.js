// Reports: the list with status and page count, and an upload by drag-and-drop or file picker.

import { request } from '../api.js';
import { alertBox, badge, date, fill, h, table } from '../dom.js';
import { go } from '../router.js';

export async function render(view, { fail }) {
  document.title = 'Reports · Sibyl';
  const list = h('section', { 'aria-labelledby': 'reports-heading' });
  view.append(h('h1', {}, 'Reports'), uploadForm(fail), list);
  await showPage(list, null, fail);
}

async function showPage(list, after, fail) {
  const { reports } = await request('ReportList', { after });
  const rows = reports.edges.map(({ node }) => [
    h('a', { href: `#/reports/${encodeURIComponent(node.id)}` }, node.filename),
    node.companyName ?? '',
    node.analysis?.status === 'RUNNING'
      ? [badge(node.status), ' ', h('progress', { max: 100, value: node.analysis.progressPercent, 'aria-label': `${node.filename} analysis progress` })]
      : badge(node.status),
    node.pageCount ?? '',
    date(node.createdAt),
  ]);
  const more = reports.pageInfo.hasNextPage
    ? h('button', { type: 'button', onclick: () => showPage(list, reports.pageInfo.endCursor, fail).catch(fail) }, 'Next reports')
    : null;
  fill(
    list,
    h('h2', { id: 'reports-heading' }, `Your reports (${reports.totalCount})`),
    rows.length
      ? table('Uploaded reports, newest first', ['Report', 'Company', 'Status', 'Pages', 'Uploaded'], rows, { id: 'report-table', class: 'stack' })
      : h('p', {}, 'No report yet: upload a PDF above.'),
    after ? h('button', { type: 'button', onclick: () => showPage(list, null, fail).catch(fail) }, 'First reports') : null,
    more,
  );
}

function uploadForm(fail) {
  const file = h('input', { id: 'upload-file', type: 'file', accept: 'application/pdf,.pdf', class: 'visually-hidden-file' });
  const company = h('input', { id: 'upload-company', type: 'text', autocomplete: 'organization' });
  const status = h('div', { role: 'status', class: 'form-status' });
  const zone = h(
    'label',
    { for: 'upload-file', class: 'dropzone' },
    h('strong', {}, 'Drop a report PDF here'),
    h('span', {}, ' or choose a file'),
  );

  async function upload(chosen) {
    if (!chosen) return;
    fill(status, h('p', {}, `Uploading ${chosen.name}…`));
    try {
      const { uploadReport: result } = await request(
        'UploadReport',
        { file: null, companyName: company.value.trim() || null },
        { files: { 'variables.file': chosen } },
      );
      if (result.__typename === 'UploadReportError') {
        fill(status, alertBox(`${chosen.name} was not uploaded. ${result.message}`));
        return;
      }
      go(`/reports/${result.report.id}`);
    } catch (error) {
      fill(status);
      fail(error);
    }
  }

  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    upload(event.dataTransfer.files[0]);
  });
  file.addEventListener('change', () => upload(file.files[0]));

  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'upload-heading' },
    h('h2', { id: 'upload-heading' }, 'Upload a report'),
    h('div', { class: 'field' }, h('label', { for: 'upload-company' }, 'Company (optional)'), company),
    file,
    zone,
    status,
  );
}
