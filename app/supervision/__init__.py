"""`sibyl run`'s process supervision: the supervisor that starts, watches, restarts and stops the API,
the worker and the embedded servers (`supervisor.py`, `supervised.py`), the checks it makes before
starting (`preflight.py`), the one-run-per-DATA_DIR lock and run record (`run_lock.py`), the guardian
that stops what a killed run left behind (`guardian.py`), facts about processes read from /proc
(`processes.py`), the banner printed once everything is up (`banner.py`) and the embedded Postgres and
Redis servers with their portability check (`embedded/`).
"""
