// One report: its status, start / resume / re-run, the live pipeline and event feed, and export.

import { ApiError, download, request } from '../api.js';
import { alertBox, badge, fill, h, table, words } from '../dom.js';
import { feedItem, follow } from '../live.js';
import { notFound, reportNav } from './nav.js';
import { registrySection } from './registry.js';

const STAGES = [
  ['claims', 'Claims'],
  ['orchestrator', 'Orchestrator'],
  ['specialists', 'Specialists (in parallel)'],
  ['judge', 'Judge'],
  ['passes', 'Passes'],
  ['compile', 'Compile'],
];
const STAGE_OF = { queued: -1, extracting_claims: 0, routing: 1, investigating: 2, judging: 3, completed: 6 };
const REFRESH_ON = new Set(['parse_completed', 'parse_failed', 'analysis_queued', 'analysis_resumed', 'agent_started', 'agent_completed', 'reinvestigation', 'pipeline_completed', 'error', 'warning']);

export async function render(view, { params, fail }) {
  const { report } = await request('ReportOverview', { id: params.id });
  if (!report) return notFound(view);
  document.title = `${report.filename} · Sibyl`;
  const summary = h('section', { class: 'card', 'aria-labelledby': 'status-heading' });
  const pipeline = h('section', { class: 'card', 'aria-labelledby': 'pipeline-heading' });
  const connection = h('p', { class: 'connection', role: 'status' });
  const feed = h('ol', { class: 'feed', id: 'event-feed', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: '0', 'aria-labelledby': 'feed-heading' });
  view.append(
    reportNav(report.id, ''),
    h('h1', {}, report.filename),
    h('div', { class: 'grid' }, summary, pipeline),
    registrySection(report.id, fail),
    exportSection(report, fail),
    h('section', { class: 'card' }, h('h2', { id: 'feed-heading' }, 'Event feed'), connection, feed),
  );

  let shown = report;
  const draw = () => {
    drawSummary(summary, shown, refresh, fail);
    drawPipeline(pipeline, shown.analysis);
  };
  let pending = null;
  function refresh() {
    pending ??= setTimeout(async () => {
      pending = null;
      try {
        shown = (await request('ReportOverview', { id: params.id })).report ?? shown;
        draw();
      } catch (error) {
        // The server is away (restarting): the feed reconnects and its next event refreshes again.
        if (!(error instanceof ApiError && error.kind === 'network')) fail(error);
      }
    }, 300);
  }
  draw();
  const stop = follow(report.id, {
    onEvent: (event) => {
      const atBottom = feed.scrollTop + feed.clientHeight >= feed.scrollHeight - 8;
      feed.append(feedItem(event));
      if (atBottom) feed.scrollTop = feed.scrollHeight;
      if (REFRESH_ON.has(event.eventType)) refresh();
    },
    onState: (text) => fill(connection, text),
    onRefused: fail,
  });
  return () => {
    clearTimeout(pending);
    stop();
  };
}

function drawSummary(section, report, refresh, fail) {
  const analysis = report.analysis;
  const result = h('div', { role: 'status', class: 'form-status' });
  const act = (name, variables, label) =>
    h('button', {
      type: 'button',
      onclick: async () => {
        fill(result, `${label}…`);
        try {
          const data = await request(name, variables);
          const outcome = Object.values(data)[0];
          if (outcome.__typename.endsWith('Error')) fill(result, alertBox(outcome.message));
          else fill(result, `${label}: queued.`);
          refresh();
        } catch (error) {
          fill(result);
          fail(error);
        }
      },
    }, label);
  const actions = [];
  const busy = report.status === 'ANALYZING' || ['PENDING', 'RUNNING'].includes(analysis?.status);
  if (report.status === 'PARSED' && !analysis) actions.push(act('StartAnalysis', { reportId: report.id, skipClaimsExtraction: false }, 'Start analysis'));
  if (analysis && !busy && ['PARSED', 'COMPLETED', 'ERROR'].includes(report.status)) {
    actions.push(act('StartAnalysis', { reportId: report.id, skipClaimsExtraction: true }, 'Re-run analysis'));
  }
  if (analysis?.status === 'ERROR') {
    actions.push(act('ResumeAnalysis', { reportId: report.id }, 'Resume analysis'));
  }
  fill(
    section,
    h('h2', { id: 'status-heading' }, 'Status'),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Report'), h('dd', { id: 'report-status' }, badge(report.status)),
      h('dt', {}, 'Company'), h('dd', {}, report.companyName ?? '—'),
      h('dt', {}, 'Pages'), h('dd', {}, report.pageCount ?? '—'),
      h('dt', {}, 'Analysis'), h('dd', { id: 'analysis-status' }, analysis ? badge(analysis.status) : 'not started'),
      report.queuePosition != null ? [h('dt', {}, 'Queue'), h('dd', { id: 'queue-position' }, queued(report.queuePosition))] : null,
      analysis ? [h('dt', {}, 'Claims'), h('dd', {}, analysis.claimsCount), h('dt', {}, 'Findings'), h('dd', {}, analysis.findingsCount), h('dt', {}, 'Verdicts'), h('dd', {}, analysis.verdictsCount)] : null,
    ),
    report.errorMessage ? alertBox(report.errorMessage) : null,
    analysis?.errorMessage && analysis.errorMessage !== report.errorMessage ? alertBox(analysis.errorMessage) : null,
    analysis?.warnings.length ? h('ul', { class: 'warnings' }, analysis.warnings.map((w) => h('li', {}, w.message))) : null,
    h('div', { class: 'actions' }, actions),
    result,
  );
}

function drawPipeline(section, analysis) {
  const at = analysis ? STAGE_OF[analysis.pipelineStage] ?? -1 : -1;
  const done = analysis?.status === 'COMPLETED';
  const pass = analysis ? analysis.iterationCount + 1 : 0;
  const stateOf = (index) => {
    if (done) return 'done';
    if (index === 4) return analysis && analysis.iterationCount > 0 && at >= 0 ? 'active' : 'waiting';
    if (index === 5) return 'waiting';
    return index < at ? 'done' : index === at && analysis?.status === 'RUNNING' ? 'active' : 'waiting';
  };
  const stages = STAGES.map(([key, label], index) => {
    const state = stateOf(index);
    const extra = key === 'passes' && analysis ? ` ${pass} of ${analysis.maxIterations}` : '';
    return h('li', { class: `stage stage-${state}`, 'data-stage': key }, h('span', { class: 'stage-name' }, label + extra), h('span', { class: 'stage-state' }, state));
  });
  const agents = analysis?.agentStatuses ?? [];
  fill(
    section,
    h('h2', { id: 'pipeline-heading' }, 'Pipeline'),
    analysis
      ? [
          h('ol', { class: 'pipeline', 'aria-label': 'Pipeline stages' }, stages),
          h('label', { for: 'analysis-progress' }, `Progress: ${Math.round(analysis.progressPercent)}%`, analysis.pipelineStage ? ` (${words(analysis.pipelineStage)})` : ''),
          h('progress', { id: 'analysis-progress', max: 100, value: analysis.progressPercent }),
          h('p', { id: 'active-agents' }, analysis.activeAgents.length ? `Working now: ${analysis.activeAgents.join(', ')}` : 'No specialist is working right now.'),
          agents.length
            ? table('Specialists in this pass', ['Agent', 'State', 'Claims done'], agents.map((a) => [a.agentName, badge(a.status), `${a.claimsCompleted} of ${a.claimsAssigned}`]))
            : null,
        ]
      : h('p', {}, 'Not analysed yet.'),
  );
}

function exportSection(report, fail) {
  const status = h('div', { role: 'status', class: 'form-status' });
  const exporter = (format, extension, type) => async () => {
    try {
      const { report: exported } = await request('ExportReport', { id: report.id, format });
      download(`${report.filename.replace(/\.pdf$/i, '')}-verdicts.${extension}`, exported.export, type);
      fill(status, `Downloaded the ${words(format)} export.`);
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'graphql') fill(status, alertBox(error.message));
      else fail(error);
    }
  };
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'export-heading' },
    h('h2', { id: 'export-heading' }, 'Export the verdicts'),
    h('div', { class: 'actions' },
      h('button', { type: 'button', onclick: exporter('MARKDOWN', 'md', 'text/markdown') }, 'Download Markdown'),
      h('button', { type: 'button', onclick: exporter('JSON', 'json', 'application/json') }, 'Download JSON'),
    ),
    status,
  );
}

/** Where the report's waiting job stands: organisations take turns, so it is an estimate. */
function queued(ahead) {
  return ahead === 0 ? 'starts next' : `${ahead} job${ahead > 1 ? 's' : ''} ahead of it`;
}
