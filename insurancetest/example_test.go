package insurancetest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// coverTrip is partner code under test: it quotes travel cover for a booking.
func coverTrip(ctx context.Context, c *insurance.Client, email string, cost float64) (string, error) {
	q, err := c.QuoteTravel(ctx, &insurance.TravelQuoteRequest{
		Customer: insurance.Customer{EmailAddress: email},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:      cost,
			TripStartDate: insurance.NewDate(2027, time.July, 1),
			TripEndDate:   insurance.NewDate(2027, time.July, 10),
		},
	})
	if err != nil {
		return "", fmt.Errorf("quoting trip cover: %w", err)
	}
	return q.QuoteID, nil
}

// A partner's unit test points its own code at the sandbox: a real HTTP round trip on
// loopback, no account, no network.
func Example() {
	srv := insurancetest.NewServer()
	defer srv.Close()
	client := srv.Client()

	quoteID, err := coverTrip(context.Background(), client, "ada@example.com", 1800)
	fmt.Println(quoteID != "", err)

	_, err = coverTrip(context.Background(), client, "ada@example.com", 0) // no trip cost
	fmt.Println(errors.Is(err, insurance.ErrBadRequest))
	// Output:
	// true <nil>
	// true
}

// Test values drive the failure paths: the declined card answers 402.
func ExampleServer_NewTuitionQuote() {
	srv := insurancetest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	quoteID := srv.NewTuitionQuote("ada@example.com")
	pay := func(number string) error {
		_, err := client.PurchaseTuition(ctx, &insurance.TuitionPurchaseRequest{
			QuoteID:       quoteID,
			PaymentMethod: insurance.PaymentMethod{Card: &insurance.Card{Number: number, Month: "12", Year: "2030"}},
		})
		return err
	}

	fmt.Println("declined:", errors.Is(pay(insurancetest.CardDeclined), insurance.ErrPaymentFailed))
	fmt.Println("paid:", pay(insurancetest.CardOK) == nil)
	fmt.Println("paid twice:", errors.Is(pay(insurancetest.CardOK), insurance.ErrQuoteUnavailable))
	// Output:
	// declined: true
	// paid: true
	// paid twice: true
}

// MarkPurchased binds a quote outside the interface; quoting it again answers 422.
func ExampleServer_MarkPurchased() {
	srv := insurancetest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	quoteID, _ := coverTrip(ctx, client, "ada@example.com", 900)
	_ = srv.MarkPurchased(quoteID)

	_, err := client.QuoteTravel(ctx, &insurance.TravelQuoteRequest{
		QuoteID:  quoteID,
		Customer: insurance.Customer{EmailAddress: "ada@example.com"},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:      900,
			TripStartDate: insurance.NewDate(2027, time.July, 1),
			TripEndDate:   insurance.NewDate(2027, time.July, 10),
		},
	})
	fmt.Println(errors.Is(err, insurance.ErrQuoteUnavailable))
	// Output: true
}

// Inject stages the failures networks and proxies cause. Here the insurer issues the
// policy and the connection drops before the answer: the SDK reports the outcome as
// unknown (and sends nothing twice); the test finds the policy.
func ExampleServer_Inject() {
	srv := insurancetest.NewServer()
	defer srv.Close()
	srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Drop: true})
	quoteID := srv.NewTuitionQuote("ada@example.com")

	_, err := srv.Client().PurchaseTuition(context.Background(), &insurance.TuitionPurchaseRequest{
		QuoteID:       quoteID,
		PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})

	fmt.Println("outcome unknown:", errors.Is(err, insurance.ErrOutcomeUnknown))
	fmt.Println("requests:", len(srv.Requests()))
	fmt.Println("policy issued for the quote:", srv.Policies()[0].QuoteID == quoteID)
	// Output:
	// outcome unknown: true
	// requests: 1
	// policy issued for the quote: true
}

// Requests shows what the sandbox received: the auth scheme, never a credential, and
// bodies with card numbers masked.
func ExampleServer_Requests() {
	srv := insurancetest.NewServer()
	defer srv.Close()
	_, _ = srv.Client().PurchaseTuition(context.Background(), &insurance.TuitionPurchaseRequest{
		QuoteID:       srv.NewTuitionQuote("ada@example.com"),
		PaymentMethod: insurance.PaymentMethod{Card: &insurance.Card{Number: insurancetest.CardOK, Verification: "123"}},
	})

	for _, r := range srv.Requests() {
		fmt.Println(r.Method, r.Path, r.Auth, r.StatusCode)
		var body struct {
			PaymentMethod struct {
				Card struct{ Number, Verification string }
			} `json:"payment_method"`
		}
		_ = json.Unmarshal(r.Body, &body)
		fmt.Println(body.PaymentMethod.Card.Number, body.PaymentMethod.Card.Verification)
	}
	// Output:
	// POST /v1/purchase/tuition basic 201
	// ************4242 ***
}

// InMemory needs no port. Advance moves the sandbox's clock: the customer secret
// expires without waiting. (Inside testing/synctest.Test, the SDK's retry waits and
// Delay faults also pass in fake time: see the package doc.)
func ExampleInMemory() {
	srv := insurancetest.NewServer(insurancetest.InMemory())
	client := srv.Client()
	ctx := context.Background()
	quote, _ := client.QuoteGapMedical(ctx, &insurance.GapMedicalQuoteRequest{
		Customer:         insurance.Customer{EmailAddress: "ada@example.com"},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: insurance.NewDate(2027, time.April, 1)},
	})
	secret, _ := client.CreateCustomerSecret(ctx, "ada@example.com")

	srv.Advance(16 * time.Minute)
	_, err := client.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
		QuoteID: quote.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	fmt.Println(srv.URL)
	fmt.Println("expired:", errors.Is(err, insurance.ErrUnauthorized))
	// Output:
	// http://insurancetest.invalid
	// expired: true
}
