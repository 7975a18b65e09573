package insurance_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

// One set of country values fits every country field: the constants, a code the SDK
// does not name (the literal "FR", or Country of a string), each sent as its code.
func TestOneCountryValueFitsEveryCountryField(t *testing.T) {
	fromConfig := "IT" // a code read at run time
	tests := []struct {
		name string
		body any
		want string
	}{
		{"customer", insurance.Customer{Country: insurance.CountryUS}, `{"country": "US"}`},
		{"travel quote: customer, origin, destinations", &insurance.TravelQuoteRequest{
			Customer: insurance.Customer{Country: insurance.CountryCA},
			PolicyAttributes: insurance.TravelPolicyAttributes{
				Origin:               insurance.Origin{State: "IL", Country: insurance.CountryUS},
				DestinationCountries: []insurance.Country{insurance.CountryCA, "FR", insurance.Country(fromConfig)},
			},
		}, `{"customer": {"country": "CA"},
			"policy_attributes": {"origin": {"state": "IL", "country": "US"}, "destination_countries": ["CA", "FR", "IT"]}}`},
		{"gap-medical quote: customer", &insurance.GapMedicalQuoteRequest{
			Customer: insurance.Customer{Country: insurance.CountryUS},
		}, `{"customer": {"country": "US"}}`},
		{"tuition purchase: customer, bank account", &insurance.TuitionPurchaseRequest{
			Customer:      insurance.Customer{Country: insurance.CountryCA},
			PaymentMethod: insurance.PaymentMethod{BankAccount: &insurance.BankAccount{Country: insurance.CountryUS}},
		}, `{"customer": {"country": "CA"}, "payment_method": {"bank_account": {"country": "US"}}}`},
		{"onboarding", &insurance.OnboardPartnerRequest{Country: insurance.CountryCA},
			`{"entity_name": "", "administrative_email_address": "", "country": "CA", "website": ""}`},
		{"event", &insurance.CreateEventRequest{EventCountry: insurance.CountryUS}, `{"event_country": "US"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.body)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}

// Countries in answers compare with the same constants, and a code the SDK does not
// name is kept as it came.
func TestCountriesInAnswersAreCountries(t *testing.T) {
	var event insurance.Event
	require.NoError(t, json.Unmarshal([]byte(`{"event_country": "CA",
		"additional_insured": [{"business_name": "Hall", "country": "US"}, {"business_name": "Hôtel", "country": "FR"}]}`), &event))
	assert.Equal(t, insurance.CountryCA, event.EventCountry)
	assert.Equal(t, insurance.CountryUS, event.AdditionalInsured[0].Country)
	assert.Equal(t, insurance.Country("FR"), event.AdditionalInsured[1].Country)

	var partner insurance.Partner
	require.NoError(t, json.Unmarshal([]byte(`{"country": "US"}`), &partner))
	assert.Equal(t, insurance.CountryUS, partner.Country)
}

// Every field of a request or result whose JSON name says country is a Country (or a
// list of them), so a field added later cannot take a plain string again.
func TestEveryCountryFieldIsACountry(t *testing.T) {
	country := reflect.TypeFor[insurance.Country]()
	types := []reflect.Type{
		reflect.TypeFor[insurance.TravelQuoteRequest](), reflect.TypeFor[insurance.GapMedicalQuoteRequest](),
		reflect.TypeFor[insurance.TuitionPurchaseRequest](), reflect.TypeFor[insurance.GapMedicalPurchaseRequest](),
		reflect.TypeFor[insurance.OnboardPartnerRequest](), reflect.TypeFor[insurance.CreateEventRequest](),
		reflect.TypeFor[insurance.Quote](), reflect.TypeFor[insurance.Policy](), reflect.TypeFor[insurance.Partner](),
		reflect.TypeFor[insurance.Event](), reflect.TypeFor[insurance.ProductList](),
	}
	var found []string
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type, path string)
	walk = func(typ reflect.Type, path string) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] {
			return
		}
		seen[typ] = true
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if strings.Contains(name, "countr") {
				found = append(found, path+name)
				elem := f.Type
				if elem.Kind() == reflect.Slice {
					elem = elem.Elem()
				}
				assert.Equal(t, country, elem, "%s%s (%s.%s) is a %s", path, name, typ.Name(), f.Name, f.Type)
			}
			walk(f.Type, path+name+".")
		}
	}
	for _, typ := range types {
		walk(typ, typ.Name()+": ")
	}
	assert.ElementsMatch(t, []string{
		"TravelQuoteRequest: customer.country", // the Customer of every request
		"TravelQuoteRequest: policy_attributes.origin.country",
		"TravelQuoteRequest: policy_attributes.destination_countries",
		"TuitionPurchaseRequest: payment_method.bank_account.country",
		"OnboardPartnerRequest: country",
		"CreateEventRequest: event_country",
		"Partner: country",
		"Event: event_country",
		"Event: additional_insured.country",
	}, found, "the walk saw every country field")
}
