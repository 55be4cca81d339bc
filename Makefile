# The two commands a new user needs: `make run` and `make test`.
# Each one creates or updates the virtual environment first.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install lint typecheck bench clean schema docs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/sibyl run

test: $(STAMP)
	$(BIN)/pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check app schema workers clients tests bench migrations

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m bench.parse_throughput
	$(BIN)/python -m bench.event_latency
	$(BIN)/python -m bench.pipeline_run
	$(BIN)/python -m bench.claims_extraction --all
	$(BIN)/python -m bench.specialists_offline --all
	$(BIN)/python -m bench.geography --all
	$(BIN)/python -m bench.partner_api
	$(BIN)/python -m bench.verdict_quality --check
	$(BIN)/python -m bench.verdict_quality
	$(BIN)/python -m bench.worker_recovery

clean:
	rm -rf $(VENV)

schema: $(STAMP)
	$(BIN)/python -c "from schema import schema; print(schema.as_str())" > schema.graphql

docs: $(STAMP)
	$(BIN)/python -m app.config_docs
