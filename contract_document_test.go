package insurance_test

import (
	"maps"
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocumentExamplesUseOnlyNamedFields: a mock server (Prism's static mode) answers
// with the document's examples, so each example must be valid against its schema and
// use only the fields that schema names, that is, fields interface.md shows or implies.
func TestDocumentExamplesUseOnlyNamedFields(t *testing.T) {
	c := theContract(t)
	seen := 0
	for _, name := range slices.Sorted(maps.Keys(c.doc.Components.Schemas)) {
		schema := c.doc.Components.Schemas[name].Value
		for i, example := range schema.Examples {
			seen++
			assert.NoError(t, schema.VisitJSON(example), "example %d of %s", i, name)
			object, ok := example.(map[string]any)
			if !assert.True(t, ok, "example %d of %s is a JSON object", i, name) {
				continue
			}
			for field := range object {
				assert.Contains(t, schema.Properties, field, "example %d of %s uses a field its schema does not name", i, name)
			}
		}
	}
	assert.NotZero(t, seen, "the document has examples for a mock to answer with")
}

// TestDocumentSaysWhatGeneratorsNeed: what interface.md shows or implies is typed and
// required where a generated client depends on it, and the exclusive credentials are
// written where a tool can read them.
func TestDocumentSaysWhatGeneratorsNeed(t *testing.T) {
	c := theContract(t)
	for _, op := range c.operations() {
		// OpenAPI cannot say "this scheme and no other credential": the extension does.
		assert.Equal(t, true, c.doc.Paths.Find(op.path).GetOperation(op.method).Extensions["x-exclusive-security"],
			"%s %s takes only the credentials its security lists: it needs x-exclusive-security: true", op.method, op.path)
	}
	answers := []struct {
		name, method, path string
		status             int
		body               string
	}{
		{"a quote without quote_id", "POST", "/v1/quote/travel", 201, `{"premium": 52.5}`},
		{"a quote whose quote_id is a number", "POST", "/v1/quote/gap-medical", 200, `{"quote_id": 12345}`},
		{"a customer secret without secret", "POST", "/v1/auth/customer/secret", 201, `{"email_address": "ada@example.com"}`},
		{"an error whose error_code is a number", "POST", "/v1/purchase/tuition", 400, `{"error_code": 42}`},
	}
	for _, tt := range answers {
		t.Run("answer: "+tt.name, func(t *testing.T) {
			req := sent{Method: tt.method, Path: tt.path, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{}`)}
			in, _ := c.checkRequest(req) // routed; the request itself does not matter here
			require.NotNil(t, in)
			assert.Error(t, c.checkResponse(in, tt.status, http.Header{"Content-Type": {"application/json"}}, []byte(tt.body)))
		})
	}
}
