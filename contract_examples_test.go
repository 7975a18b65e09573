package insurance_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
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
