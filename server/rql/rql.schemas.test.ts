import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildOpenApiDocument } from "../api/openapi.ts";
import { RQL_PARAM_DESCRIPTION, ZRqlQueryParam } from "./rql.schemas.ts";

describe("the rql query parameter in the OpenAPI document", () => {
  it("refers to the one shared description of the parameter, and documents the 400 of a malformed query", () => {
    const doc = buildOpenApiDocument(
      [
        {
          method: "GET",
          path: "/api/v3/things/search",
          summary: "Search things",
          tags: ["test"],
          auth: { kind: "none" },
          query: z.object({ rql: ZRqlQueryParam }),
          response: { status: 200, description: "things" },
          errors: ["rql.malformed"],
        },
      ],
      "http://localhost/idp",
    );
    const get = doc.paths!["/api/v3/things/search"]!.get!;
    expect(get.parameters).toEqual([{ $ref: "#/components/parameters/Rql" }]);
    expect(doc.components?.parameters?.Rql).toMatchObject({ name: "rql", in: "query", required: false, description: RQL_PARAM_DESCRIPTION });
    expect(JSON.stringify(get.responses?.["400"])).toContain("malformed_rql");
  });
});
