#!/usr/bin/env python3
"""Writes an OpenAPI 3.0 document of N operations (default 1,000) shaped like real ones, for the benchmarks of mocks
made from a document (section `document` of HTTPMockBenchmarks).

Shape, per resource (N / 5 resources, each with 5 operations):
  GET    /v1/RESOURCEs             list, with query parameters (limit, cursor, filter, sort) and a paged response
  POST   /v1/RESOURCEs             create, with a JSON body and a 201 with Location and an example
  GET    /v1/RESOURCEs/{id}        read, 200 with two named examples and a 404 problem
  PUT    /v1/RESOURCEs/{id}        replace, with a JSON body, 200 generated from the schema (no example)
  DELETE /v1/RESOURCEs/{id}        204
Schemas: one per resource, referring to shared ones (Money, Address, Audit, Problem, Page), with enums, formats,
bounds, nullable fields, allOf and oneOf, as API descriptions of businesses hold them.

Usage: generate-openapi-document.py [--operations N] [--json] OUTPUT
"""
import argparse
import json
import sys

WORDS = ["account", "invoice", "order", "payment", "customer", "product", "shipment", "refund", "ticket", "webhook",
         "subscription", "coupon", "warehouse", "supplier", "employee", "project", "report", "document", "device", "event"]


def resource_name(index):
    word = WORDS[index % len(WORDS)]
    return word if index < len(WORDS) else f"{word}{index // len(WORDS)}"


def pascal(name):
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_"))


def shared_schemas():
    return {
        "Money": {"type": "object", "required": ["amount", "currency"], "properties": {
            "amount": {"type": "integer", "minimum": 0, "description": "In the currency's smallest unit."},
            "currency": {"type": "string", "enum": ["EUR", "USD", "GBP", "CHF", "JPY"]}}},
        "Address": {"type": "object", "required": ["line1", "city", "country"], "properties": {
            "line1": {"type": "string", "minLength": 1, "maxLength": 200},
            "line2": {"type": "string", "nullable": True},
            "city": {"type": "string"},
            "postalCode": {"type": "string", "pattern": "^[A-Z0-9 -]{3,10}$"},
            "country": {"type": "string", "minLength": 2, "maxLength": 2}}},
        "Audit": {"type": "object", "required": ["createdAt", "createdBy"], "properties": {
            "createdAt": {"type": "string", "format": "date-time"},
            "updatedAt": {"type": "string", "format": "date-time", "nullable": True},
            "createdBy": {"type": "string", "format": "email"}}},
        "Problem": {"type": "object", "required": ["type", "title", "status"], "properties": {
            "type": {"type": "string", "format": "uri"},
            "title": {"type": "string"},
            "status": {"type": "integer", "minimum": 100, "maximum": 599},
            "detail": {"type": "string"}}},
        "PageInfo": {"type": "object", "required": ["hasMore"], "properties": {
            "hasMore": {"type": "boolean"},
            "nextCursor": {"type": "string", "nullable": True}}},
    }


def resource_schemas(name):
    title = pascal(name)
    new = {"type": "object", "required": ["name", "status"], "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 120},
        "status": {"type": "string", "enum": ["draft", "active", "suspended", "closed"]},
        "price": {"$ref": "#/components/schemas/Money"},
        "address": {"$ref": "#/components/schemas/Address"},
        "tags": {"type": "array", "maxItems": 20, "items": {"type": "string", "maxLength": 40}},
        "quantity": {"type": "integer", "minimum": 1, "maximum": 10000},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1},
        "website": {"type": "string", "format": "uri", "nullable": True},
        "channel": {"oneOf": [
            {"type": "object", "required": ["email"], "properties": {"email": {"type": "string", "format": "email"}}},
            {"type": "object", "required": ["phone"], "properties": {"phone": {"type": "string"}}}]},
        "metadata": {"type": "object", "additionalProperties": {"type": "string"}}}}
    full = {"allOf": [{"$ref": f"#/components/schemas/New{title}"}, {"type": "object", "required": ["id", "audit"], "properties": {
        "id": {"type": "string", "format": "uuid"},
        "audit": {"$ref": "#/components/schemas/Audit"}}}]}
    page = {"type": "object", "required": ["items", "page"], "properties": {
        "items": {"type": "array", "items": {"$ref": f"#/components/schemas/{title}"}},
        "page": {"$ref": "#/components/schemas/PageInfo"}}}
    return {f"New{title}": new, title: full, f"{title}Page": page}


def example(name, number):
    return {"id": f"00000000-0000-4000-8000-{number:012d}", "name": f"{name} {number}", "status": "active",
            "price": {"amount": 1999, "currency": "EUR"}, "tags": ["a", "b"], "quantity": 3, "ratio": 0.5,
            "address": {"line1": "1 Main Street", "city": "Lyon", "country": "FR"}, "website": None,
            "channel": {"email": "someone@example.com"}, "metadata": {"source": "import"},
            "audit": {"createdAt": "2024-05-01T10:00:00Z", "createdBy": "ops@example.com", "updatedAt": None}}


def json_content(schema, **extra):
    media = {"schema": schema}
    media.update(extra)
    return {"application/json": media}


def problem_response(description):
    return {"description": description,
            "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}


def operations(name):
    title = pascal(name)
    ref = {"$ref": f"#/components/schemas/{title}"}
    new_ref = {"$ref": f"#/components/schemas/New{title}"}
    id_parameter = {"$ref": "#/components/parameters/Id"}
    collection = {
        "get": {"operationId": f"list{title}s", "tags": [name], "summary": f"Lists {name}s.",
                "parameters": [{"$ref": "#/components/parameters/Limit"}, {"$ref": "#/components/parameters/Cursor"},
                               {"name": "filter", "in": "query", "schema": {"type": "string"}},
                               {"name": "sort", "in": "query", "schema": {"type": "string", "enum": ["name", "-name", "createdAt", "-createdAt"]}}],
                "responses": {"200": {"description": "A page.", "content": json_content({"$ref": f"#/components/schemas/{title}Page"},
                                       example={"items": [example(name, 1)], "page": {"hasMore": False, "nextCursor": None}})},
                              "400": problem_response("Bad query.")}},
        "post": {"operationId": f"create{title}", "tags": [name], "summary": f"Creates a {name}.",
                 "parameters": [{"name": "Idempotency-Key", "in": "header", "required": True, "schema": {"type": "string", "format": "uuid"}}],
                 "requestBody": {"required": True, "content": json_content(new_ref)},
                 "responses": {"201": {"description": "Created.", "headers": {"Location": {"required": True, "schema": {"type": "string", "format": "uri"}}},
                                       "content": json_content(ref, example=example(name, 2))},
                               "422": problem_response("Invalid.")}},
    }
    item = {
        "parameters": [id_parameter],
        "get": {"operationId": f"get{title}", "tags": [name], "summary": f"Reads a {name}.",
                "responses": {"200": {"description": "Found.", "content": json_content(ref, examples={
                                  "typical": {"value": example(name, 3)},
                                  "suspended": {"value": dict(example(name, 4), status="suspended")}})},
                              "404": problem_response("Not found.")}},
        "put": {"operationId": f"replace{title}", "tags": [name], "summary": f"Replaces a {name}.",
                "requestBody": {"required": True, "content": json_content(new_ref)},
                "responses": {"200": {"description": "Replaced (generated from the schema).", "content": json_content(ref)},
                              "404": problem_response("Not found.")}},
        "delete": {"operationId": f"delete{title}", "tags": [name], "summary": f"Deletes a {name}.",
                   "responses": {"204": {"description": "Deleted."}, "404": problem_response("Not found.")}},
    }
    return {f"/v1/{name}s": collection, f"/v1/{name}s/{{id}}": item}


def document(count):
    resources = max(1, count // 5)
    paths = {}
    schemas = shared_schemas()
    for index in range(resources):
        name = resource_name(index)
        paths.update(operations(name))
        schemas.update(resource_schemas(name))
    return {
        "openapi": "3.0.3",
        "info": {"title": f"Generated API of {resources * 5} operations", "version": "1.0.0"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "parameters": {
                "Id": {"name": "id", "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}},
                "Limit": {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}},
                "Cursor": {"name": "cursor", "in": "query", "schema": {"type": "string"}},
            },
        },
    }


def to_yaml(value, indent=0):
    """YAML of JSON values, written by hand (no PyYAML needed): block style, strings quoted as JSON."""
    pad = "  " * indent
    lines = []
    if isinstance(value, dict):
        if not value:
            return [pad + "{}"]
        for key, member in value.items():
            key_text = json.dumps(key)
            if isinstance(member, (dict, list)) and member:
                lines.append(f"{pad}{key_text}:")
                lines.extend(to_yaml(member, indent + 1))
            else:
                lines.append(f"{pad}{key_text}: {scalar(member)}")
    elif isinstance(value, list):
        if not value:
            return [pad + "[]"]
        for member in value:
            if isinstance(member, (dict, list)) and member:
                inner = to_yaml(member, indent + 1)
                lines.append(f"{pad}- {inner[0].strip()}")
                lines.extend(inner[1:])
            else:
                lines.append(f"{pad}- {scalar(member)}")
    else:
        lines.append(pad + scalar(value))
    return lines


def scalar(value):
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return json.dumps(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--operations", type=int, default=1000)
    parser.add_argument("--json", action="store_true", help="write JSON rather than YAML")
    parser.add_argument("output")
    arguments = parser.parse_args()
    value = document(arguments.operations)
    with open(arguments.output, "w", encoding="utf-8") as file:
        if arguments.json:
            json.dump(value, file, indent=1)
        else:
            file.write("\n".join(to_yaml(value)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
