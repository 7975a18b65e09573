package insurance_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

func TestMaskingDoesNotChangeTheWire(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	var rec wiretest.Recorder
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/purchase/tuition", rec.Respond(201, `{"policy_id":"p"}`))
	req := wiretest.FullTuitionPurchase()
	_ = fmt.Sprint(req) // printing must not mutate the request

	_, err := c.PurchaseTuition(context.Background(), req)
	require.NoError(t, err)
	assert.Contains(t, string(only(t, &rec).Body), wiretest.CardNumber)
}
