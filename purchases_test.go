package insurance_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMaskingDoesNotChangeTheWire(t *testing.T) {
	c, mt := newMockClient(t)
	var rec recorder
	mt.RegisterResponder("POST", testBaseURL+"/v1/purchase/tuition", rec.respond(201, `{"policy_id":"p"}`))
	req := fullTuitionPurchase()
	_ = fmt.Sprint(req) // printing must not mutate the request

	_, err := c.PurchaseTuition(context.Background(), req)
	require.NoError(t, err)
	assert.Contains(t, string(rec.only(t).Body), testCardNumber)
}
