// The dashboard's entry point: routes, the sign-in guard, and what happens when a request fails.

import { ApiError, apiKey } from './api.js';
import { alertBox, h } from './dom.js';
import { go, match, route } from './router.js';

route('/signin', () => import('./views/signin.js'));
route('/reports', () => import('./views/reports.js'));
route('/reports/:id', () => import('./views/report.js'));
route('/reports/:id/claims', () => import('./views/claims.js'));
route('/reports/:id/claims/:claimId', () => import('./views/claim.js'));
route('/reports/:id/pages/:page', () => import('./views/page.js'));
route('/reports/:id/ifrs', () => import('./views/ifrs.js'));
route('/reports/:id/ask', () => import('./views/ask.js'));
route('/evidence', () => import('./views/evidence.js'));

const main = document.getElementById('main');
/** The view on screen; a newer navigation replaces it, and a stale render's result is dropped. */
let current = { cleanup: null };

/** What a view does with an error it cannot handle itself: a refused key goes back to sign-in. */
export function fail(error, where = main.firstElementChild ?? main) {
  if (error instanceof ApiError && error.kind === 'auth') {
    apiKey.clear();
    go('/signin', { reason: 'rejected', next: location.hash.slice(1) });
    return;
  }
  if (!(error instanceof ApiError)) console.warn(error);
  where.append(alertBox(error.message));
}

/** Rate-limited renders in a row: each retry waits twice as long as the last (up to 8×). */
let rateRefusals = 0;

/** Render the view on screen again once the rate limit's wait is over, unless the user moved on. */
function retryLater(mine, seconds) {
  const wait = (Number.isFinite(seconds) && seconds > 0 ? seconds : 5) * 2 ** Math.min(rateRefusals, 3);
  rateRefusals += 1;
  const timer = setTimeout(() => current === mine && show(), wait * 1000);
  mine.cleanup = () => clearTimeout(timer);
}

async function show() {
  const hash = location.hash.startsWith('#/') ? location.hash : '#/reports';
  document.body.classList.toggle('signed-in', Boolean(apiKey.get()));
  if (!apiKey.get() && !hash.startsWith('#/signin')) {
    go('/signin', { next: hash.slice(1) });
    return;
  }
  current.cleanup?.();
  const mine = (current = { cleanup: null });
  const view = h('div', { class: 'view' });
  main.replaceChildren(view);
  const found = match(hash);
  if (!found) {
    view.append(h('h1', {}, 'Page not found'), h('p', {}, h('a', { href: '#/reports' }, 'Go to the reports')));
    return;
  }
  try {
    const module = await found.load();
    const cleanup = await module.render(view, { params: found.params, query: found.query, fail: (e) => fail(e, view) });
    if (current === mine) mine.cleanup = cleanup ?? null;
    else cleanup?.();
    rateRefusals = 0;
  } catch (error) {
    if (current !== mine) return;
    const limited = error instanceof ApiError && error.kind === 'rate';
    fail(limited ? new ApiError('rate', `${error.message} This page will retry by itself.`) : error, view);
    if (limited) retryLater(mine, error.retryAfter);
  }
  const heading = view.querySelector('h1');
  if (current === mine && heading && !view.contains(document.activeElement)) {
    heading.tabIndex = -1;
    heading.focus();
  }
}

document.querySelector('.skip-link').addEventListener('click', (event) => {
  event.preventDefault();
  main.focus();
});
document.getElementById('sign-out').addEventListener('click', () => {
  apiKey.clear();
  go('/signin');
});
addEventListener('hashchange', show);
show();
