package wiretest

import (
	"time"

	"github.com/partnerinsure/insurance-go"
)

// Fully populated requests, matching the wire fixtures field for field.

func fullCustomer() insurance.Customer {
	return insurance.Customer{
		EmailAddress: "ada@example.com", FirstName: "Ada", MiddleName: "M", LastName: "Lovelace",
		PhoneNumber: "+15555550100", Street: "1 Main St", City: "Springfield", State: "IL",
		PostalCode: "62701", Country: "US",
	}
}

// FullTravelQuote matches testdata/wire/quote_travel_request.json field for field.
func FullTravelQuote() *insurance.TravelQuoteRequest {
	return &insurance.TravelQuoteRequest{
		Customer:  fullCustomer(),
		Metadata:  map[string]any{"booking_id": "bk_42"},
		PartnerID: "partner_1",
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:             2500.5,
			TripCostCurrency:     "USD",
			TripStartDate:        insurance.NewDate(2027, time.March, 1),
			TripEndDate:          insurance.NewDate(2027, time.March, 15),
			InitialDepositDate:   insurance.NewDate(2027, time.January, 10),
			Origin:               insurance.Origin{State: "IL", Country: "US"},
			DestinationCountries: []insurance.Country{"FR", "IT"},
			AdditionalTravelers:  []insurance.Traveler{{FirstName: "Charles", MiddleName: "B", LastName: "Babbage"}},
			CoverageType:         insurance.CoverageBasic,
		},
		QuoteID:    "q_123",
		EmailQuote: insurance.Bool(true),
		Language:   "en",
		Currency:   "USD",
	}
}

// FullGapMedicalQuote matches testdata/wire/quote_gap_medical_request.json field for field.
func FullGapMedicalQuote() *insurance.GapMedicalQuoteRequest {
	return &insurance.GapMedicalQuoteRequest{
		Customer: insurance.Customer{
			EmailAddress: "ada@example.com", FirstName: "Ada", LastName: "Lovelace",
			State: "IL", Country: "US", PostalCode: "62701",
		},
		Metadata:  map[string]any{"checkout": "web"},
		PartnerID: "partner_1",
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{
			CoverageStartDate: insurance.NewDate(2027, time.April, 1),
			Extra:             map[string]any{"deductible": 500},
		},
		QuoteID:  "q_gm_1",
		Language: "en",
		Currency: "USD",
	}
}

// FullTuitionPurchase matches testdata/wire/purchase_tuition_request.json field for field.
func FullTuitionPurchase() *insurance.TuitionPurchaseRequest {
	return &insurance.TuitionPurchaseRequest{
		Customer: insurance.Customer{EmailAddress: "ada@example.com", FirstName: "Ada", LastName: "Lovelace"},
		Metadata: map[string]any{"term": "fall-2027"},
		QuoteID:  "q_tu_1",
		PaymentMethod: insurance.PaymentMethod{
			Card: &insurance.Card{
				Name: "Ada Lovelace", Number: CardNumber, Verification: "123",
				Month: "12", Year: "2030", AddressPostalCode: "62701",
			},
			BankAccount: &insurance.BankAccount{
				Currency: "USD", AccountOwnerName: "Ada Lovelace", RoutingNumber: "110000000",
				AccountNumber: BankAccount, AccountType: "checking", AccountOwnerType: "individual", Country: "US",
			},
			Token:            "tok_ok",
			SaveForFutureUse: insurance.Bool(true),
		},
		Subscription: insurance.Bool(true),
	}
}

// FullGapMedicalPurchase matches testdata/wire/purchase_gap_medical_request.json field for field.
func FullGapMedicalPurchase() *insurance.GapMedicalPurchaseRequest {
	return &insurance.GapMedicalPurchaseRequest{QuoteID: "q_gm_1", PaymentMethod: insurance.PaymentMethod{Token: "tok_ok"}}
}

// FullOnboardPartner matches testdata/wire/onboard_partner_request.json field for field.
func FullOnboardPartner() *insurance.OnboardPartnerRequest {
	return &insurance.OnboardPartnerRequest{
		EntityName:                 "Acme Travel",
		AdministrativeEmailAddress: "admin@acme.example",
		BillingEmailAddress:        "billing@acme.example",
		Address:                    "2 Market St",
		City:                       "Toronto",
		State:                      "ON",
		PostalCode:                 "M5V 2T6",
		TravelRetailer:             insurance.Bool(true),
		Country:                    insurance.CountryCA,
		Website:                    "https://acme.example",
		BankAccount: &insurance.PartnerBankAccount{
			ACHAccountNumber: ACHAccount, ACHRoutingNumber: "021000021",
			ACHAccountType: insurance.ACHChecking, ACHAccountName: "Acme Travel", EFTBankCode: "001",
		},
	}
}

// FullCreateEvent matches testdata/wire/create_event_request.json field for field.
func FullCreateEvent() *insurance.CreateEventRequest {
	return &insurance.CreateEventRequest{
		EventName:       "Partner Summit",
		EventStartDate:  insurance.NewDate(2027, time.June, 1),
		EventEndDate:    insurance.NewDate(2027, time.June, 3),
		EventStreet:     "3 Harbour Rd",
		EventCity:       "Chicago",
		EventState:      "IL",
		EventPostalCode: "60601",
		EventCountry:    "US",
	}
}
