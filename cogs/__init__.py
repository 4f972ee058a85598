"""The Discord front end: slash-command cogs that translate options into orders for the service.

A cog never decides a rule: it turns a slash command into the same line of the order language
the local table reads (or a typed order), calls ``service.GameService`` and shows the ``Result``.
"""
