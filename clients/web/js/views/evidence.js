// The evidence library: add a document (a file, pasted text or a URL to fetch), list, delete.

import { request } from '../api.js';
import { alertBox, date, fill, h, table } from '../dom.js';

export async function render(view, { fail }) {
  document.title = 'Evidence library · Sibyl';
  const list = h('section', { class: 'card', 'aria-labelledby': 'library-heading' });
  const reload = () => showList(list, fail).catch(fail);
  view.append(
    h('h1', {}, 'Evidence library'),
    h('p', { class: 'hint' }, 'Documents here are searched by the specialist agents alongside the web. Re-run an analysis to use new ones.'),
    addForm(reload, fail),
    list,
  );
  await showList(list, fail);
}

async function showList(list, fail) {
  const { evidenceDocuments: documents } = await request('EvidenceList', {});
  const status = h('div', { role: 'status', class: 'form-status' });
  const remove = (doc) => async () => {
    try {
      const { deleteEvidenceDocument: result } = await request('DeleteEvidenceDocument', { id: doc.id });
      if (result.__typename.endsWith('Error')) fill(status, alertBox(result.message));
      else await showList(list, fail);
    } catch (error) {
      fail(error);
    }
  };
  const rows = documents.edges.map(({ node: doc }) => [
    doc.sourceUrl && /^https?:/.test(doc.sourceUrl) ? h('a', { href: doc.sourceUrl, rel: 'noopener noreferrer', target: '_blank' }, doc.title) : doc.title,
    doc.sourceDomain ?? '—',
    doc.publishedDate ?? '—',
    doc.mediaType,
    doc.charCount,
    date(doc.createdAt),
    h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${doc.title}`, onclick: remove(doc) }, 'Delete'),
  ]);
  fill(
    list,
    h('h2', { id: 'library-heading' }, `Documents (${documents.totalCount})`),
    rows.length
      ? table('Evidence documents, newest first', ['Title', 'Publisher', 'Published', 'Type', 'Characters', 'Added', 'Action'], rows, { id: 'evidence-table', class: 'stack' })
      : h('p', {}, 'The library is empty.'),
    status,
  );
}

function addForm(reload, fail) {
  const field = (id, label, control, hint) =>
    h('div', { class: 'field' }, h('label', { for: id }, label), control, hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null);
  const title = h('input', { id: 'evidence-title', name: 'title', type: 'text' });
  const url = h('input', { id: 'evidence-url', name: 'sourceUrl', type: 'url', placeholder: 'https://…' });
  const published = h('input', { id: 'evidence-date', name: 'publishedDate', type: 'date' });
  const text = h('textarea', { id: 'evidence-text', name: 'text', rows: 5 });
  const file = h('input', { id: 'evidence-file', name: 'file', type: 'file', accept: '.pdf,.html,.htm,.txt,.md,application/pdf,text/html,text/plain,text/markdown' });
  const status = h('div', { role: 'status', class: 'form-status' });

  async function submit(event) {
    event.preventDefault();
    const chosen = file.files[0] ?? null;
    const input = {
      file: null,
      text: text.value.trim() || null,
      title: title.value.trim() || null,
      sourceUrl: url.value.trim() || null,
      publishedDate: published.value || null,
    };
    fill(status, 'Adding…');
    try {
      const { addEvidenceDocument: result } = await request('AddEvidenceDocument', { input }, chosen ? { files: { 'variables.input.file': chosen } } : {});
      if (result.__typename.endsWith('Error')) {
        fill(status, alertBox(result.message));
        return;
      }
      fill(status, result.duplicate ? `“${result.document.title}” was already in the library.` : `Added “${result.document.title}”.`);
      event.target.reset();
      reload();
    } catch (error) {
      fill(status);
      fail(error);
    }
  }

  return h('form', { class: 'card evidence-form', 'aria-labelledby': 'add-heading', onsubmit: submit },
    h('h2', { id: 'add-heading' }, 'Add a document'),
    h('p', { class: 'hint' }, 'Give a file, or paste its text, or only a URL for the server to fetch.'),
    field('evidence-file', 'File (PDF, HTML, text or Markdown)', file),
    field('evidence-text', 'Text', text),
    field('evidence-url', 'Source URL', url),
    field('evidence-title', 'Title (optional)', title),
    field('evidence-date', 'Published (optional)', published),
    h('button', { type: 'submit' }, 'Add to the library'),
    status,
  );
}
