# The official Python MCP client (checked with mcp 2.3.0 on Python 3.11) against a running server:
#   /tmp/mcp-python/bin/python scripts/python-client-check.py http://127.0.0.1:3000/api/mcp
# books a flight, plays tic-tac-toe and picks a card, answering each native form with its first titled
# choice, and prints each question (its message and its fields: title, number of choices). A manual
# check, not part of npm test: CI machines have no Python package index. How to install its packages
# in a scratch folder (never in the repository): docs/testing.md, "The Python client, by hand".
import asyncio, json, sys
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client as streamablehttp_client
import mcp.types as types

URL = sys.argv[1]
asked = []

async def elicit(context, params):
    schema = params.requested_schema
    asked.append({"message": params.message, "schema": schema, "meta": getattr(params, "meta", None)})
    content = {}
    for name, prop in schema["properties"].items():
        if "oneOf" in prop:
            content[name] = prop["oneOf"][0]["const"]
    return types.ElicitResult(action="accept", content=content)

async def sample(context, params):
    return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text="Take the train."), model="py")

async def main():
    async with streamablehttp_client(URL) as (read, write):
        async with ClientSession(read, write, elicitation_callback=elicit, sampling_callback=sample) as session:
            init = await session.initialize()
            print("protocol", init.protocol_version)
            for name, args in [("book_flight", {"from": "NYC", "destination": "LAX"}), ("tictactoe", {}), ("pick_card", {})]:
                asked.clear()
                result = await session.call_tool(name, args)
                print(name, "isError", result.is_error, json.dumps(result.structured_content)[:160])
                for q in asked:
                    print("  Q:", q["message"][:70].replace("\n", " | "), "| props:", {k: (v.get("title"), len(v.get("oneOf", []))) for k, v in q["schema"]["properties"].items()})
asyncio.run(main())
