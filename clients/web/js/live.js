// The live event feed of one report: graphql-transport-ws subscription to analysisEvents that
// reconnects after a dropped socket or a server restart with `afterSequence` = the last event seen,
// so the feed has no gap (holes are filled over HTTP) and no duplicate (events are keyed by sequence).

import { ApiError, apiKey, operation, rateMessage, request } from './api.js';
import { h } from './dom.js';
import { refusal, subscribe } from './ws.js';

const RETRY_MS = [250, 500, 1000, 2000, 4000];

/**
 * Follow `reportId`'s events. `onEvent(event)` is called once per event (sequence), in order;
 * `onState(text)` says how the connection is; `onRefused(error)` when the key is refused.
 * Returns a function that stops following.
 */
export function follow(reportId, { onEvent, onState, onRefused }) {
  labels.clear();
  let last = 0;
  let stopped = false;
  let unsubscribe = () => {};
  let attempt = 0;
  let timer = null;

  async function deliver(event) {
    if (event.sequence <= last) return;
    if (event.sequence > last + 1) await fillHole(event.sequence);
    if (event.sequence <= last) return;
    last = event.sequence;
    onEvent(event);
  }

  async function fillHole(upTo) {
    const { report } = await request('MissedEvents', { id: reportId, afterSequence: last, first: Math.min(500, upTo - last - 1) });
    for (const missed of report?.events ?? []) {
      if (missed.sequence > last && missed.sequence < upTo) {
        last = missed.sequence;
        onEvent(missed);
      }
    }
  }

  let queue = Promise.resolve();
  async function connect() {
    if (stopped) return;
    const query = await operation('AnalysisEvents');
    onState(attempt ? `Reconnecting (attempt ${attempt})…` : 'Connecting…');
    unsubscribe = subscribe(
      { query, operationName: 'AnalysisEvents', variables: { reportId, afterSequence: last }, key: apiKey.get() },
      {
        open: () => {
          attempt = 0;
          onState('Live');
        },
        next: (data) => {
          refusals = 0;
          queue = queue.then(() => deliver(data.analysisEvents)).catch(onRefusedOr);
        },
        error: (errors) => {
          // The subscribe message counts against the key's limit too: refused, it is tried again.
          const extensions = errors?.[0]?.extensions ?? {};
          if (extensions.code === 'RATE_LIMITED') return rateLimited(Number(extensions.retryAfterSeconds) || 5);
          onRefusedOr(new ApiError('graphql', errors?.[0]?.message ?? 'The subscription failed.'));
        },
        closed: (code, reason) => {
          const kind = refusal(code, reason);
          if (kind === 'auth') return onRefused(new ApiError('auth', reason));
          if (kind === 'rate') return rateLimited(retryAfter(reason));
          const wait = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
          again(wait, `Connection lost; reconnecting in ${wait / 1000} s…`);
        },
      },
    );
  }

  /** Say `text` and connect again in `wait` ms. */
  function again(wait, text) {
    attempt += 1;
    onState(text);
    timer = setTimeout(connect, wait);
  }

  // A reconnect costs two requests (connection_init, subscribe), so waiting only the stated time
  // can be refused forever at a low limit: the wait doubles with each refusal in a row (up to 8×).
  let refusals = 0;
  function rateLimited(seconds) {
    const wait = seconds * 2 ** Math.min(refusals, 3);
    refusals += 1;
    again(wait * 1000, rateMessage(wait));
  }

  function onRefusedOr(error) {
    if (error instanceof ApiError && error.kind === 'auth') onRefused(error);
    else onState(error.message);
  }

  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
  };
}

/** The seconds a rate-limited close's reason asks to wait ("… retry in N s."). */
function retryAfter(reason) {
  return Number(/retry in (\d+)/.exec(reason ?? '')?.[1] ?? 5);
}

/** One line for the feed: the event's sequence, the agent, and what happened. */
export function feedItem(event) {
  return h(
    'li',
    { 'data-event-sequence': event.sequence },
    h('span', { class: 'event-id' }, `#${event.sequence}`),
    h('span', { class: 'event-agent' }, event.agentName ?? 'sibyl'),
    h('span', { class: 'event-text' }, describe(event)),
  );
}

/** Claim id → "p.4 “text…”", learnt from claims_extracted events, to name claims in later lines. */
const labels = new Map();
const claimLabel = (id) => labels.get(id) ?? `claim ${String(id).slice(0, 8)}`;

const shorten = (text, n = 90) => (String(text ?? '').length > n ? `${String(text).slice(0, n - 1)}…` : String(text ?? ''));

const DESCRIBE = {
  report_uploaded: (d) => `uploaded ${d.filename} (${d.pageCount} pages)`,
  parse_started: (d) => `parsing ${d.pageCount} pages`,
  parse_progress: (d) => `parsed ${d.pagesParsed} of ${d.pageCount} pages`,
  parse_completed: (d) => `parsed in ${d.seconds} s`,
  parse_failed: (d) => `parsing failed: ${d.message ?? ''}`,
  analysis_queued: (d) => `analysis queued (${d.max_iterations} passes at most)`,
  agent_started: (d) => (d.claims_assigned != null ? `investigating ${d.claims_assigned} claim(s), pass ${d.iteration + 1}` : `started, pass ${(d.iteration ?? 0) + 1}`),
  agent_completed: (d) => (d.findings_count != null ? `done: ${d.findings_count} finding(s)` : d.verdicts_count != null ? `done: ${d.verdicts_count} verdict(s)` : 'done'),
  claims_extracted: (d) => {
    for (const claim of d.claims ?? []) labels.set(claim.claim_id, `p.${claim.source_page} “${shorten(claim.text, 50)}”`);
    return `pages ${d.pages?.[0]}–${d.pages?.at(-1)}: ${d.count} claim(s)`;
  },
  claim_routed: (d) => `${claimLabel(d.claim_id)} → ${(d.assigned_agents ?? []).join(', ')}`,
  claim_investigating: (d) => `investigating “${shorten(d.claim_text, 60)}”`,
  search_executed: (d) => `searched “${shorten(d.query, 60)}”: ${d.results_count} result(s)`,
  evidence_found: (d) => shorten(d.summary, 120),
  verdict_issued: (d) => `${String(d.verdict).toUpperCase()} ${claimLabel(d.claim_id)}`,
  reinvestigation: (d) => `re-investigating ${d.claim_ids?.length ?? 0} claim(s), cycle ${d.cycle}`,
  pipeline_completed: (d) => `completed: ${d.total_verdicts} verdict(s) on ${d.total_claims} claim(s)`,
  warning: (d) => `warning: ${d.message ?? d.code}`,
  error: (d) => `error: ${d.message ?? ''}`,
};

function describe(event) {
  const data = event.data ?? {};
  const describer = DESCRIBE[event.eventType];
  return describer ? describer(data) : shorten(data.message ?? data.evaluation_summary ?? event.eventType.replaceAll('_', ' '), 120);
}
