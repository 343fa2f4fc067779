package result

import _ "embed"

// JSONSchema is the JSON Schema (draft 2020-12) of what the json format
// writes, shipped so other tools can validate cryptocost's output
// (docs/result-schema.md describes the fields).
//
//go:embed run.schema.json
var JSONSchema []byte
