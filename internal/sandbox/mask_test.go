package sandbox

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMaskBodyKeepsTheBodyButItsSecrets(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"card", `{"payment_method":{"card":{"name":"Ada","number":"4242424242424242","verification":"123"}}}`,
			`{"payment_method":{"card":{"name":"Ada","number":"************4242","verification":"***"}}}`},
		{"spacing kept", "{ \"number\" :\n \"4000000000000002\" , \"x\": 1 }", "{ \"number\" :\n \"************0002\" , \"x\": 1 }"},
		{"a number as a JSON number", `{"account_number":123456789012}`, `{"account_number":"********9012"}`},
		{"bank and ACH accounts", `{"bank_account":{"account_number":"000123456789","routing_number":"110000000"},"x":[{"ach_account_number":"000987654321"}]}`,
			`{"bank_account":{"account_number":"********6789","routing_number":"110000000"},"x":[{"ach_account_number":"********4321"}]}`},
		{"a container under a sensitive key: everything in it", `{"number":["4242424242424242",{"x":"123"}],"b":"number"}`, `{"number":["************4242",{"x":"***"}],"b":"number"}`},
		{"null and booleans untouched", `{"number":null,"verification":true}`, `{"number":null,"verification":true}`},
		{"values of other keys untouched", `{"quote_id":"4242424242424242"}`, `{"quote_id":"4242424242424242"}`},
		{"no sensitive key: the body as sent", `{"customer":{"email_address":"a@b.example"},"trip_cost":2500}`, `{"customer":{"email_address":"a@b.example"},"trip_cost":2500}`},
		{"a sensitive key spelt with an escape", `{"numb\u0065r":"4242424242424242"}`, `{"numb\u0065r":"************4242"}`},
		{"not JSON: every digit masked", `card=4242 4242 4242 4242&cvc=123`, `card=**** **** **** ****&cvc=***`},
		{"JSON cut short: every digit masked", `{"card":{"number":"4242 4242 4242 4242","verification":"123"}},`, `{"card":{"number":"**** **** **** ****","verification":"***"}},`},
		{"JSON then junk: treated as not JSON", `{"number":"1"} 4242424242424242`, `{"number":"*"} ****************`},
		{"keys are never masked", `{"number":{"number":"12"}}`, `{"number":{"number":"**"}}`},
		{"a key in another case, as encoding/json takes it", `{"Number":"4242424242424242","VERIFICATION":"123"}`, `{"Number":"************4242","VERIFICATION":"***"}`},
		{"account keys in any case", `{"Account_Number":"000123456789","ACH_account_NUMBER":"000987654321"}`, `{"Account_Number":"********6789","ACH_account_NUMBER":"********4321"}`},
		{"another case spelt with an escape", `{"NUMBER":"4242424242424242"}`, `{"NUMBER":"************4242"}`},
		{"a Kelvin sign or long s is no sensitive key's letter", "{\"\u212aey\":\"4242\",\"\u017fum\":\"1\"}", "{\"\u212aey\":\"4242\",\"\u017fum\":\"1\"}"},
		{"a value that reads like a key is not masked", `{"card_kind":"NUMBER","x":"4242"}`, `{"card_kind":"NUMBER","x":"4242"}`},
		{"empty", ``, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, string(maskBody([]byte(tc.in))))
		})
	}
}
