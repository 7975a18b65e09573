package api

import (
	"bytes"
	_ "embed"
)

//go:embed sandbox.yaml
var sandboxDocument []byte

// Sandbox returns a copy of api/sandbox.yaml: the OpenAPI 3.1 document of the
// sandbox's own controls under /sandbox/ (package insurancetest documents them).
// They are no part of the interface, which OpenAPI describes alone.
func Sandbox() []byte { return bytes.Clone(sandboxDocument) }
