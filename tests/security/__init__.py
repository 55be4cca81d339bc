"""What Sibyl defends against a hostile tenant, one module per kind of abuse (issue: hostile tenants)."""
