package insurancetest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListProducts(t *testing.T) {
	srv := newSandbox(t)
	list, err := srv.Client().ListProducts(ctx)
	require.NoError(t, err)
	var ids []string
	for _, p := range list.Products {
		ids = append(ids, p.ID)
	}
	assert.Equal(t, []string{"gap-medical", "travel", "tuition"}, ids)
}
