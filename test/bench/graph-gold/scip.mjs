// Reads a SCIP index (github.com/sourcegraph/scip): only the fields the gold needs.
// Field numbers are the public scip.proto ones, checked against the generated decoder shipped in
// @sourcegraph/scip-typescript 0.4.0 (dist/src/scip.js); protobufjs skips every other field.
import fs from "node:fs";
import { loadProtobuf } from "./tools.mjs";

const SCHEMA = {
  nested: {
    scip: {
      nested: {
        Index: {
          fields: { metadata: { type: "Metadata", id: 1 }, documents: { rule: "repeated", type: "Document", id: 2 } },
        },
        Metadata: { fields: { toolInfo: { type: "ToolInfo", id: 2 } } },
        ToolInfo: { fields: { name: { type: "string", id: 1 }, version: { type: "string", id: 2 } } },
        Document: {
          fields: {
            relativePath: { type: "string", id: 1 },
            occurrences: { rule: "repeated", type: "Occurrence", id: 2 },
          },
        },
        Occurrence: {
          fields: {
            range: { rule: "repeated", type: "int32", id: 1 },
            symbol: { type: "string", id: 2 },
            symbolRoles: { type: "int32", id: 3 },
          },
        },
      },
    },
  },
};

/** SymbolRole bit for a definition occurrence. */
export const DEFINITION = 1;

/** Decodes a .scip file into `{ tool, version, documents: [{ relativePath, occurrences }] }`. */
export function readScip(file) {
  const protobuf = loadProtobuf();
  const Index = protobuf.Root.fromJSON(SCHEMA).lookupType("scip.Index");
  const index = Index.toObject(Index.decode(fs.readFileSync(file)), { defaults: true, arrays: true });
  return {
    tool: index.metadata?.toolInfo?.name ?? "",
    version: index.metadata?.toolInfo?.version ?? "",
    documents: index.documents.map((d) => ({
      relativePath: d.relativePath,
      occurrences: d.occurrences.map((o) => ({ range: range4(o.range), symbol: o.symbol, roles: o.symbolRoles })),
    })),
  };
}

// SCIP ranges are [line, startChar, endChar] on one line or [startLine, startChar, endLine, endChar]; 0-based.
function range4(r) {
  if (r.length < 3) return null;
  return r.length === 3 ? [r[0], r[1], r[0], r[2]] : [r[0], r[1], r[2], r[3]];
}
