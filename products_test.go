package insurance_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

func TestProductListShapes(t *testing.T) {
	for name, body := range map[string]string{
		"object with products": `{"products":[{"id":"travel"}]}`,
		"object with data":     `{"data":[{"id":"travel"}]}`,
		"bare array":           ` [{"id":"travel"}]`,
	} {
		t.Run(name, func(t *testing.T) {
			var l insurance.ProductList
			require.NoError(t, json.Unmarshal([]byte(body), &l))
			require.Len(t, l.Products, 1)
			assert.Equal(t, "travel", l.Products[0].ID)
		})
	}
}

// TestListProductsDecodesLikeUnmarshalJSON: ListProducts decodes its body in one pass
// rather than through json.Unmarshal and ProductList.UnmarshalJSON; for every shape,
// and for bodies that fail, it gives what those give.
func TestListProductsDecodesLikeUnmarshalJSON(t *testing.T) {
	for name, body := range map[string]string{
		"object with products":  `{"products":[{"id":"travel","name":"Travel"},{"id":"tuition"}]}`,
		"object with data":      `{"data":[{"id":"travel"}]}`,
		"both, products wins":   `{"data":[{"id":"d"}],"products":[{"id":"p"}]}`,
		"bare array":            " \n[{\"id\":\"travel\",\"extra\":{\"a\":[1,2]}}]",
		"empty object":          `{}`,
		"null":                  `null`,
		"trailing garbage":      `{"products":[]} x`,
		"malformed":             `{"products":[{"id":"travel"}`,
		"wrong type":            `{"products":[{"id":5}]}`,
		"array of wrong things": `[1,2]`,
	} {
		t.Run(name, func(t *testing.T) {
			var want insurance.ProductList
			wantErr := json.Unmarshal([]byte(body), &want)

			c, mt := wiretest.NewMockClient(t)
			mt.RegisterResponder("GET", wiretest.BaseURL+"/v1/products", httpmock.NewStringResponder(200, body))
			got, err := c.ListProducts(context.Background())
			if wantErr != nil {
				require.Error(t, err)
				assert.ErrorContains(t, err, "decoding response body: "+wantErr.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, want.Products, got.Products)
			assert.JSONEq(t, body, string(got.Raw))
		})
	}
}
