"""The GraphQL object types, enums and read resolvers, one module per type group (reports, claims,
analysis, evidence, events, questions, registries, verdict sources, ...), and the helpers they share
(global ids, pagination, enum descriptions, reading ORM rows)."""
