package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/mail"
	"reflect"
	"time"
)

// The request bodies as api/openapi.yaml describes them, read by the sandbox on its
// own: every field it names with the JSON type it gives, so a wrong type is a 400
// naming the field. Dates are strings here and parsed where they are used, so that a
// malformed one is a 400 naming its field too. A field these types do not name is
// refused with a 400 naming it, or, in the bodies the interface leaves open
// (endpoint.open), accepted unread with a warning: see fields.go.

type wireCustomer struct {
	EmailAddress string `json:"email_address"`
	State        string `json:"state"`
	Country      string `json:"country"`
	PostalCode   string `json:"postal_code"`
	FirstName    string `json:"first_name"`
	MiddleName   string `json:"middle_name"`
	LastName     string `json:"last_name"`
	PhoneNumber  string `json:"phone_number"`
	Street       string `json:"street"`
	City         string `json:"city"`
}

type travelQuoteRequest struct {
	Customer         wireCustomer   `json:"customer"`
	Metadata         map[string]any `json:"metadata"`
	PartnerID        string         `json:"partner_id"`
	QuoteID          string         `json:"quote_id"`
	EmailQuote       bool           `json:"email_quote"`
	Language         string         `json:"language"`
	Currency         string         `json:"currency"`
	PolicyAttributes struct {
		TripCost             float64  `json:"trip_cost"`
		TripCostCurrency     string   `json:"trip_cost_currency"`
		TripStartDate        string   `json:"trip_start_date"`
		TripEndDate          string   `json:"trip_end_date"`
		InitialDepositDate   string   `json:"initial_deposit_date"`
		DestinationCountries []string `json:"destination_countries"`
		CoverageType         string   `json:"coverage_type"`
		Origin               struct {
			State   string `json:"state"`
			Country string `json:"country"`
		} `json:"origin"`
		AdditionalTravelers []struct {
			FirstName  string `json:"first_name"`
			MiddleName string `json:"middle_name"`
			LastName   string `json:"last_name"`
		} `json:"additional_travelers"`
	} `json:"policy_attributes"`
}

// gapMedicalQuoteRequest: the interface does not show this body. The sandbox reads it
// like the travel quote, with the coverage start date the client-side component
// takes; other fields, policy attributes included, are accepted unread, with a
// warning (WarningHeader).
type gapMedicalQuoteRequest struct {
	Customer         wireCustomer   `json:"customer"`
	Metadata         map[string]any `json:"metadata"`
	PartnerID        string         `json:"partner_id"`
	QuoteID          string         `json:"quote_id"`
	Language         string         `json:"language"`
	Currency         string         `json:"currency"`
	PolicyAttributes struct {
		CoverageStartDate string `json:"coverage_start_date"`
	} `json:"policy_attributes"`
}

type wirePaymentMethod struct {
	Card *struct {
		Name              string `json:"name"`
		Number            string `json:"number"`
		Verification      string `json:"verification"`
		Month             string `json:"month"`
		Year              string `json:"year"`
		AddressPostalCode string `json:"address_postal_code"`
	} `json:"card"`
	BankAccount *struct {
		Currency         string `json:"currency"`
		AccountOwnerName string `json:"account_owner_name"`
		RoutingNumber    string `json:"routing_number"`
		AccountNumber    string `json:"account_number"`
		AccountType      string `json:"account_type"`
		AccountOwnerType string `json:"account_owner_type"`
		Country          string `json:"country"`
	} `json:"bank_account"`
	Token            string `json:"token"`
	SaveForFutureUse bool   `json:"save_for_future_use"`
}

type tuitionPurchaseRequest struct {
	Customer      wireCustomer      `json:"customer"`
	Metadata      map[string]any    `json:"metadata"`
	QuoteID       string            `json:"quote_id"`
	PaymentMethod wirePaymentMethod `json:"payment_method"`
	Subscription  bool              `json:"subscription"`
}

// gapMedicalPurchaseRequest: the interface shows quote_id and payment_method.token;
// other fields (a card beside the token, say) are accepted unread, with a warning.
type gapMedicalPurchaseRequest struct {
	QuoteID       string `json:"quote_id"`
	PaymentMethod struct {
		Token string `json:"token"`
	} `json:"payment_method"`
}

type customerSecretRequest struct {
	EmailAddress string `json:"email_address"`
}

type onboardRequest struct {
	EntityName                 string `json:"entity_name"`
	AdministrativeEmailAddress string `json:"administrative_email_address"`
	BillingEmailAddress        string `json:"billing_email_address"`
	Address                    string `json:"address"`
	City                       string `json:"city"`
	State                      string `json:"state"`
	PostalCode                 string `json:"postal_code"`
	TravelRetailer             bool   `json:"travel_retailer"`
	Country                    string `json:"country"`
	Website                    string `json:"website"`
	BankAccount                *struct {
		ACHAccountNumber string `json:"ach_account_number"`
		ACHRoutingNumber string `json:"ach_routing_number"`
		ACHAccountType   string `json:"ach_account_type"`
		ACHAccountName   string `json:"ach_account_name"`
		EFTBankCode      string `json:"eft_bank_code"`
	} `json:"bank_account"`
}

type eventRequest struct {
	EventName       string `json:"event_name"`
	EventStartDate  string `json:"event_start_date"`
	EventEndDate    string `json:"event_end_date"`
	EventStreet     string `json:"event_street"`
	EventCity       string `json:"event_city"`
	EventState      string `json:"event_state"`
	EventPostalCode string `json:"event_postal_code"`
	EventCountry    string `json:"event_country"`
}

const dayLayout = "2006-01-02"

// day parses an optional date field "YYYY-MM-DD"; ok is false when it is absent.
func day(field, value string) (t time.Time, ok bool, err error) {
	if value == "" {
		return time.Time{}, false, nil
	}
	t, err = time.Parse(dayLayout, value)
	if err != nil {
		return time.Time{}, false, badRequest("invalid_parameter", "%s must be a date YYYY-MM-DD, not %q", field, value)
	}
	return t, true, nil
}

// requiredDay parses a required date field.
func requiredDay(field, value string) (time.Time, error) {
	t, ok, err := day(field, value)
	if err == nil && !ok {
		err = missing(field)
	}
	return t, err
}

// decodeStrict is decode for a control's body, whose fields api/sandbox.yaml lists: a
// field v does not name (matched exactly, as the document does) is a 400
// unknown_parameter naming it, as on the interface (fields.go), not a silent no-op.
func decodeStrict(body []byte, v any) error {
	if unknown, _ := unknownFields(body, reflect.TypeOf(v)); len(unknown) > 0 {
		return unknownParameter(unknown, "this control")
	}
	return decode(body, v)
}

// decode reads a JSON request body into v with messages a developer can act on.
// Unknown fields are left to fields.go (or decodeStrict), which has checked them
// before.
func decode(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("trailing data after the JSON object")
	}
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &typeErr):
		return badRequest("invalid_type", "parameter %s must be a %s, not %s", typeErr.Field, jsonType(typeErr.Type.Kind().String()), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return badRequest("invalid_json", "malformed JSON at byte %d: %v", syntaxErr.Offset, syntaxErr)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("invalid_json", "request body is empty or cut short")
	}
	return badRequest("invalid_json", "invalid request body: %v", err)
}

func jsonType(kind string) string {
	switch kind {
	case "string":
		return "string"
	case "float64", "int", "int64":
		return "number"
	case "bool":
		return "boolean"
	case "slice":
		return "array"
	}
	return "object"
}

// checkEmail checks a required email address.
func checkEmail(field, value string) error {
	if value == "" {
		return missing(field)
	}
	return checkOptionalEmail(field, value)
}

// checkOptionalEmail checks an email address that may be absent.
func checkOptionalEmail(field, value string) error {
	if value == "" {
		return nil
	}
	if a, err := mail.ParseAddress(value); err != nil || a.Address != value {
		return badRequest("invalid_parameter", "%s is not an email address", field)
	}
	return nil
}
