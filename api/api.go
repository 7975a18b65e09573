// Package api holds the OpenAPI 3.1 documents of the insurance partner interface
// (api/openapi.yaml) and of the sandbox's controls (api/sandbox.yaml): the referees
// between the SDK, the sandbox and the interface description. The SDK's and the
// sandbox's contract tests validate every request and answer they exchange against
// them.
package api

import (
	"bytes"
	_ "embed"
)

//go:embed openapi.yaml
var openAPIDocument []byte

// OpenAPI returns a copy of api/openapi.yaml, the OpenAPI 3.1 document (YAML) of the
// interface: its eight operations, their security schemes, request and response
// schemas, and error responses. It describes the interface only; it has no
// /sandbox/ paths. Each call returns a fresh copy: the embedded document cannot be
// changed by an importer.
func OpenAPI() []byte { return bytes.Clone(openAPIDocument) }
