"""The web front end (issue 19): one page per game, the live board for everyone and the seat's
orders for a player holding a private link. A thin translator like cogs/, local/ and mail/:
every order goes through ``service.batch.run_batch``. ``docs/web.md`` describes it."""
