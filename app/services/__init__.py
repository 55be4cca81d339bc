"""Business operations; each takes its database access explicitly and is called by resolvers and jobs."""
