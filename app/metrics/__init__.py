"""Prometheus metrics of the API and the worker, in the exposition format (`prometheus-client`).

Each process serves its own metrics from its own registry (prometheus-client's default one, which
also carries the process's CPU, memory and garbage collections); nothing is merged between
processes, so there is no multiprocess mode and no shared files:

* the API answers `GET /metrics` on its own port without an API key (METRICS_PORT=0), or on a
  listener of its own (METRICS_PORT=N at METRICS_HOST, and then not on the API's port);
* the worker, where jobs, parse and analysis stages, LLM calls and searches happen, serves them on
  WORKER_METRICS_PORT (0: not served), a port being simpler than sharing files between processes.

Most metrics count as the work happens (`catalogue`, `stages`, the worker's job hooks in
`worker`); a few are read when the process is scraped, from what it attached while it runs
(`scrape`): the job queue in Redis (`queue_depth`, from the API only: one Redis, one process tells
it), database pools (`db_pools`), circuit breakers (`app.llm.metrics`) and the restarts `sibyl run`
made (`app.supervision.restart_metrics`). The exposition is rendered off the event loop
(`exposition`), since reading the queue waits on Redis.

Labels never carry an organisation's content: no company, report, organisation or file names and
no ids. Their values come from the code (job kinds, stages, verdict labels, error codes) or from
the settings (model names); the one value clients choose, a GraphQL operation's name, is bounded in
length and number (`labels.FirstCome`).
"""
