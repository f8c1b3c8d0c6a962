"""The JSON API of API.md, through the test client, and its OpenAPI description fuzzed."""
