// Small helpers to build DOM nodes without innerHTML (text is always text, never markup).

const SVG_NS = 'http://www.w3.org/2000/svg';

/** h('a', {href: '#/'}, 'Home') — an element with attributes, listeners (onclick…) and children. */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const el = svg ? document.createElementNS(SVG_NS, tag.slice(4)) : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Replace everything inside `el` with `children`. */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) el.append(child);
  }
  return el;
}

/** "INSUFFICIENT_EVIDENCE" → "insufficient evidence". */
export const words = (value) => String(value ?? '').toLowerCase().replaceAll('_', ' ');

/** A status or verdict as a coloured badge (the colour comes from its class). */
export const badge = (value) =>
  h('span', { class: `badge badge-${String(value ?? 'none').toLowerCase()}` }, words(value ?? 'none'));

export const date = (iso) => (iso ? new Date(iso).toLocaleString() : '');

/** The bare UUID inside a global id (base64 "Type:uuid"), for URLs that take either. */
export function localId(globalId) {
  try {
    const decoded = atob(globalId);
    return decoded.includes(':') ? decoded.split(':').pop() : globalId;
  } catch {
    return globalId;
  }
}

/** A <p role="alert"> for an error a person should read. */
export const alertBox = (message) => h('p', { class: 'alert', role: 'alert' }, message);

/**
 * A table with a caption and column headers; `rows` are arrays of cells (nodes or text). Cells
 * carry their column's name so narrow screens can show each row as a labelled card.
 */
export function table(caption, headers, rows, attrs = {}) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      attrs,
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, headers.map((title) => h('th', { scope: 'col' }, title)))),
      h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((cell, i) => h('td', { 'data-label': headers[i] }, cell))))),
    ),
  );
}
