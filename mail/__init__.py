"""The e-mail gateway: a thin front end beside cogs/ and local/, onto the same service."""
