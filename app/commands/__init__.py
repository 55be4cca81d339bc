"""The `sibyl` command groups beside `sibyl run` (`app.cli` joins them): the IFRS corpus, the
evidence library, the public registries and API keys, each getting its database the same way
(`database.run_with_database`: DATABASE_URL, or the embedded server `sibyl run` uses)."""
