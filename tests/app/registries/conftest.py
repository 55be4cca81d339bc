"""Registry tests start and end with no snapshot stored (`no_registries`, in the root conftest)."""
