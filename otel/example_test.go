package insuranceotel_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
	insuranceotel "github.com/partnerinsure/insurance-go/otel"
)

func ExampleInstrument() {
	srv := insurancetest.NewServer(insurancetest.InMemory()) // no port: the same URL every run
	defer srv.Close()
	spans := tracetest.NewSpanRecorder() // in production: an exporter's span processor
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))

	client := srv.Client(insuranceotel.Instrument(insuranceotel.WithTracerProvider(tp)))
	ctx := context.Background()

	_, err := client.QuoteTravel(ctx, &insurance.TravelQuoteRequest{
		Customer: insurance.Customer{EmailAddress: "ada@example.com"},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:      1000,
			TripStartDate: insurance.NewDate(2027, time.March, 1),
			TripEndDate:   insurance.NewDate(2027, time.March, 3),
		},
	})
	fmt.Println("quote:", err)
	_, err = client.PurchaseTuition(ctx, &insurance.TuitionPurchaseRequest{
		QuoteID: srv.NewTuitionQuote("ada@example.com"),
		PaymentMethod: insurance.PaymentMethod{Card: &insurance.Card{
			Number: insurancetest.CardDeclined, Verification: "123", Month: "12", Year: "2030",
		}},
	})
	fmt.Println("declined:", errors.Is(err, insurance.ErrPaymentFailed))

	for _, span := range spans.Ended() {
		fmt.Printf("%s (%s) status %s\n", span.Name(), span.SpanKind(), span.Status().Code)
		var attrs []string
		for _, kv := range span.Attributes() {
			attrs = append(attrs, fmt.Sprintf("%s=%s", kv.Key, kv.Value.String()))
		}
		slices.Sort(attrs)
		for _, a := range attrs {
			fmt.Println("  " + a)
		}
	}
	// Output:
	// quote: <nil>
	// declined: true
	// POST /v1/quote/travel (client) status Unset
	//   http.request.method=POST
	//   http.response.status_code=201
	//   http.route=/v1/quote/travel
	//   insurance.attempts=1
	//   server.address=insurancetest.invalid
	//   server.port=80
	//   url.full=http://insurancetest.invalid/v1/quote/travel
	//   url.scheme=http
	//   url.template=/v1/quote/travel
	// POST /v1/purchase/tuition (client) status Error
	//   error.type=402
	//   http.request.method=POST
	//   http.response.status_code=402
	//   http.route=/v1/purchase/tuition
	//   insurance.attempts=1
	//   insurance.outcome_unknown=false
	//   server.address=insurancetest.invalid
	//   server.port=80
	//   url.full=http://insurancetest.invalid/v1/purchase/tuition
	//   url.scheme=http
	//   url.template=/v1/purchase/tuition
}

// A platform derives a Client per agency from one Client, and instruments each with
// the agency as an attribute: every call is one span, tagged with its agency, and the
// metrics are split by agency. (The sandbox knows one partner; in production each
// agency has its own credentials.)
func ExampleWithAttributes() {
	srv := insurancetest.NewServer(insurancetest.InMemory())
	defer srv.Close()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))

	platform := srv.Client(insuranceotel.Instrument(insuranceotel.WithTracerProvider(tp)))
	agencies := map[string]*insurance.Client{} // a platform's cache, by agency
	for _, agency := range []string{"a1", "a2"} {
		c, err := platform.With(
			insurance.WithCredentials(srv.ClientID, srv.ClientSecret), // the agency's own
			insuranceotel.Instrument(
				insuranceotel.WithTracerProvider(tp),
				insuranceotel.WithAttributes(attribute.String("partner.agency", agency)),
			),
		)
		if err != nil {
			fmt.Println(err)
			return
		}
		agencies[agency] = c
	}

	ctx := context.Background()
	_, _ = agencies["a2"].ListProducts(ctx)
	_, _ = agencies["a1"].ListProducts(ctx)
	_, _ = platform.ListProducts(ctx)

	for _, span := range spans.Ended() {
		agency := "(platform)"
		for _, kv := range span.Attributes() {
			if kv.Key == "partner.agency" {
				agency = kv.Value.AsString()
			}
		}
		fmt.Println(span.Name(), agency)
	}
	// Output:
	// GET /v1/products a2
	// GET /v1/products a1
	// GET /v1/products (platform)
}
