# The two commands a new user needs: `make run` and `make test`.
# Each one creates or updates the virtual environment first.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# GraphiQL's pinned npm files (app/web/assets.py), kept in the venv, never in git.
ASSETS := $(VENV)/share/sibyl-web-assets/manifest.json
# graphql-http's GraphQL-over-HTTP audit (tests/support/http_audit.py), pinned and kept the same way.
HTTP_AUDIT := $(VENV)/share/sibyl-http-audit/manifest.json

.PHONY: run test install lint typecheck bench clean schema docs test-tools

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Without the npm registry the API still runs; only GraphiQL's page says its files are missing.
$(ASSETS): $(STAMP) app/web/assets.py
	$(BIN)/python -m app.web.assets install && touch -c $@ || echo "warning: GraphiQL's assets are not installed"

# Without it (or without node) only tests/schema/test_http_audit.py skips.
$(HTTP_AUDIT): $(STAMP) tests/support/http_audit.py
	$(BIN)/python -m tests.support.http_audit install && touch -c $@ || echo "warning: the GraphQL-over-HTTP audit is not installed"

install: $(STAMP) $(ASSETS) $(HTTP_AUDIT)

run: $(STAMP) $(ASSETS)
	$(BIN)/sibyl run

# The tests drive Debian's chromium (browser tests), disassemble the embedded servers with objdump
# and compile small libraries with gcc (portability checks); as root (CI) these are installed when
# missing.
TEST_TOOLS := chromium:chromium objdump:binutils gcc:gcc
test-tools:
	@missing=""; for tool in $(TEST_TOOLS); do \
		command -v $${tool%%:*} >/dev/null 2>&1 || missing="$$missing $${tool##*:}"; done; \
	[ -z "$$missing" ] || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1 \
		|| (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null) \
		|| echo "warning: could not install$$missing; the tests that need them skip (fail under CI=true)"

# The schema and client tests run a second time on Strawberry's and graphql-core's own execution
# and transports (schema/fast_execution switched off), which must answer exactly the same.
test: $(STAMP) $(ASSETS) $(HTTP_AUDIT) test-tools
	$(BIN)/pytest $(PYTEST_ARGS)
	FAST_EXECUTION=false $(BIN)/pytest tests/schema tests/clients

lint: $(STAMP)
	$(BIN)/ruff check app schema workers clients tests bench migrations
	$(BIN)/ruff format --check app schema workers clients tests bench migrations
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m bench.parse_throughput
	$(BIN)/python -m bench.ws_light
	$(BIN)/python -m bench.event_latency
	$(BIN)/python -m bench.pipeline_run
	$(BIN)/python -m bench.claims_extraction --all
	$(BIN)/python -m bench.claim_detection
	$(BIN)/python -m bench.reader_pairs
	$(BIN)/python -m bench.claim_furniture
	$(BIN)/python -m bench.specialists_offline --all
	$(BIN)/python -m bench.geography --all
	$(BIN)/python -m bench.partner_api
	$(BIN)/python -m bench.ask_grounding
	$(BIN)/python -m bench.verdict_cases
	$(BIN)/python -m bench.verdict_quality
	$(BIN)/python -m bench.worker_recovery
	$(BIN)/python -m bench.registry_import
	$(BIN)/python -m bench.registry_cases
	$(BIN)/python -m bench.registry_evidence
	$(BIN)/python -m bench.registry_pipeline
	$(BIN)/python -m bench.document_bomb
	$(BIN)/python -m bench.fetch_bombs
	$(BIN)/python -m bench.auth_abuse
	$(BIN)/python -m bench.http_abuse
	$(BIN)/python -m bench.fair_queue

clean:
	rm -rf $(VENV)

schema: $(STAMP)
	$(BIN)/python -c "from schema import schema; print(schema.as_str())" > schema.graphql

docs: $(STAMP)
	$(BIN)/python -m app.config_docs
