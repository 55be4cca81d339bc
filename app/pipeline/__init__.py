"""The analysis pipeline: the LangGraph graph (`graph`, `compile`), its state and reducers
(`state`), the runner that leases, checkpoints and resumes a run (`runner`, `lease`), and thin
nodes that call the domain — claims (`claims_node`), routing (`orchestrator`, `routing`), the
investigators (`specialists`, `runtime.PipelineTools`) and the judge (`judge_node`) — and store what
it returns (`persistence`, `warnings`, `progress`, `search_coverage`, `compliance`).

The domain (`app.verification`, `app.claims`, `app.registries`, …) never imports this package
(the import contracts in pyproject.toml)."""
