"""Registry evidence: a claim read against the public registries' records of its company.

`records` holds what the reader is given (registry records already matched to the report's
company, with the basis of the match) and what it returns (`RegistryReading`); `proof` says once
what each registry can prove; the readers per kind decide one claim against one registry.
No SQL and no LangGraph here: the pipeline looks the records up and hands them in.
"""
