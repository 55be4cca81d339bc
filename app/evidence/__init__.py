"""The local evidence library: documents users add, split into passages the agents search offline.

`ingest.add_evidence_document` extracts, chunks and stores a document; `search.search_evidence`
finds the best passage of each relevant document; `library` lists and deletes documents.
"""
