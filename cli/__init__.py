"""`metamodel`, the command-line tool for shops (issue 23): a plain HTTP client of the public
API (/api/v1 with an account API key). It imports nothing of the server's packages."""
