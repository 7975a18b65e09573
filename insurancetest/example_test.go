package insurancetest_test

import (
	"context"
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

	_, err = coverTrip(context.Background(), client, "", 1800)
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
