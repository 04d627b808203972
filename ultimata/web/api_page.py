"""The header's "API" link: the HTTP API as one page, drawn on the server from the app's own OpenAPI schema.

Swagger's page loads its scripts from a CDN, which the Content-Security-Policy forbids and a player's
machine may not reach; this page is plain HTML with the site's own stylesheet, no script."""

from __future__ import annotations

import re
from html import escape
from typing import Any

from ultimata.web.page import STATIC

METHODS = ("get", "post", "delete")


def _schema_words(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " or ".join(_schema_words(s) for s in schema["anyOf"])
    return schema.get("type", "any")


def _operation(path: str, method: str, op: dict[str, Any]) -> str:
    lines = [f'<section class="panel api-op"><h3><code>{method.upper()} {escape(path)}</code></h3>']
    about = op.get("description") or op.get("summary") or ""
    if about:
        lines.append(f"<p>{escape(about)}</p>")
    params = op.get("parameters", [])
    if params:
        lines.append("<table><tr><th>parameter</th><th>in</th><th>type</th><th>meaning</th></tr>")
        for p in params:
            schema = p.get("schema", {})
            lines.append(f"<tr><td><code>{escape(p['name'])}</code>{' (required)' if p.get('required') else ''}</td>"
                         f"<td>{escape(p['in'])}</td><td>{escape(_schema_words(schema))}</td>"
                         f"<td>{escape(p.get('description') or schema.get('description') or '')}</td></tr>")
        lines.append("</table>")
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if body:
        lines.append(f"<p>body: JSON <code>{escape(_schema_words(body))}</code> (see its fields below)</p>")
    lines.append("</section>")
    return "\n".join(lines)


def _model(name: str, schema: dict[str, Any]) -> str:
    rows = []
    for field, prop in schema.get("properties", {}).items():
        required = field in schema.get("required", [])
        rows.append(f"<tr><td><code>{escape(field)}</code>{' (required)' if required else ''}</td>"
                    f"<td>{escape(_schema_words(prop))}</td><td>{escape(prop.get('description', ''))}</td></tr>")
    table = f"<table><tr><th>field</th><th>type</th><th>meaning</th></tr>{''.join(rows)}</table>" if rows else ""
    return f'<section class="panel api-op"><h3><code>{escape(name)}</code></h3>{table}</section>'


def api_page(openapi: dict[str, Any]) -> str:
    """The app's own page (static/index.html: its head, header and stylesheet) with the API as its content,
    and none of its scripts."""
    ops = [_operation(path, method, op) for path, item in openapi.get("paths", {}).items()
           for method, op in item.items() if method in METHODS]
    models = [_model(name, schema) for name, schema in openapi.get("components", {}).get("schemas", {}).items()
              if name in ("NewGame", "Move")]
    content = f"""<main class="api-page">
    <h1>The HTTP API</h1>
    <p>What the page uses, for scripts and other clients: JSON in and out. The machine-readable description is
    <a href="/api/openapi.json">/api/openapi.json</a>; every refusal is a 4xx whose <code>detail</code> names
    what was wrong and what is allowed. POST and DELETE from another site's page are refused.</p>
    {"".join(ops)}
    <h2>Request bodies</h2>
    {"".join(models)}
  </main>"""
    page = (STATIC / "index.html").read_text()
    page = re.sub(r"\s*<script[^>]*></script>|\s*<!--.*?-->", "", page, flags=re.DOTALL)
    page = page.replace("<title>ultimata</title>", "<title>ultimata: the HTTP API</title>")
    return page.replace('<main id="main"><p>Loading…</p></main>', content)
