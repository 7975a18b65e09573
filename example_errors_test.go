package insurance_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// advise tells the customer what a purchase's error means. ErrOutcomeUnknown comes
// first: the same error may also match ErrServer (a 503) or context.DeadlineExceeded
// (a deadline after the request went out), and "try again" about a policy that may
// exist can buy it twice.
func advise(err error) string {
	switch {
	case err == nil:
		return "bought"
	case errors.Is(err, insurance.ErrOutcomeUnknown):
		return "the policy may exist: check before buying again"
	case errors.Is(err, insurance.ErrPaymentFailed):
		return "declined: ask for another card"
	case errors.Is(err, insurance.ErrServer), errors.Is(err, context.DeadlineExceeded):
		return "not bought: try again later"
	default:
		return "not bought: " + err.Error()
	}
}

// A purchase's failure may match more than one sentinel: test ErrOutcomeUnknown
// first. Here a 503 to the purchase (ErrServer too), then a purchase whose deadline
// passes while the service holds its answer (context.DeadlineExceeded too).
func Example_outcomeUnknownFirst() {
	srv := insurancetest.NewServer()
	defer srv.Close()
	client := srv.Client()

	buy := func(timeout time.Duration) error {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		_, err := client.PurchaseTuition(ctx, &insurance.TuitionPurchaseRequest{
			QuoteID:       srv.NewTuitionQuote("ada@example.com"),
			PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
		})
		return err
	}

	srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Status: http.StatusServiceUnavailable})
	err := buy(10 * time.Second)
	fmt.Println("503:", errors.Is(err, insurance.ErrServer), errors.Is(err, insurance.ErrOutcomeUnknown))
	fmt.Println(advise(err))

	srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Delay: time.Minute})
	err = buy(time.Second)
	fmt.Println("deadline:", errors.Is(err, context.DeadlineExceeded), errors.Is(err, insurance.ErrOutcomeUnknown))
	fmt.Println(advise(err))

	fmt.Println(advise(buy(10 * time.Second)))
	// Output:
	// 503: true true
	// the policy may exist: check before buying again
	// deadline: true true
	// the policy may exist: check before buying again
	// bought
}
