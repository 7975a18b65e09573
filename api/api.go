// Package api holds the OpenAPI 3.1 document of the insurance partner interface,
// api/openapi.yaml: the referee between the SDK, the sandbox and the interface
// description. The SDK's and the sandbox's contract tests validate every request and
// answer they exchange against it.
package api

import _ "embed"

// OpenAPI is the OpenAPI 3.1 document (YAML) of the interface: its eight operations,
// their security schemes, request and response schemas, and error responses. It
// describes the interface only; it has no /sandbox/ paths. Treat it as read-only.
//
//go:embed openapi.yaml
var OpenAPI []byte
