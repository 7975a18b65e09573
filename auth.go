package insurance

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	"github.com/partnerinsure/insurance-go/internal/pipeline"
)

// Auth is the authentication scheme of one call. Each request carries exactly one
// scheme: AuthBasic, AuthClientID, AuthBasicOrClientID, or AuthBearer(secret).
type Auth struct {
	scheme authScheme
	bearer string
}

type authScheme int

const (
	schemeNone authScheme = iota
	schemeBasic
	schemeClientID
	schemeBasicOrClientID
	schemeBearer
)

// The auth schemes of the interface. Do not reassign them.
var (
	// AuthBasic sends "Authorization: Basic base64(client id:client secret)". For
	// machine-to-machine calls only: it needs WithCredentials.
	AuthBasic = Auth{scheme: schemeBasic}
	// AuthClientID sends only the public client id in the x-api-client-id header.
	AuthClientID = Auth{scheme: schemeClientID}
	// AuthBasicOrClientID sends Basic auth when the Client has a client secret, and the
	// x-api-client-id header otherwise.
	AuthBasicOrClientID = Auth{scheme: schemeBasicOrClientID}
	// AuthNone sends no credentials.
	AuthNone = Auth{scheme: schemeNone}
)

// AuthBearer sends "Authorization: Bearer <secret>" with a customer client secret, and
// no partner credential.
func AuthBearer(customerSecret string) Auth {
	return Auth{scheme: schemeBearer, bearer: customerSecret}
}

// Format prints the scheme, never a secret.
func (a Auth) Format(f fmt.State, verb rune) {
	names := [...]string{"AuthNone", "AuthBasic", "AuthClientID", "AuthBasicOrClientID", "AuthBearer([redacted])"}
	fmt.Fprint(f, "insurance."+names[a.scheme])
}

// HeaderClientID is the header that carries the public client id.
const HeaderClientID = "x-api-client-id"

// The endpoint table: every endpoint of the interface with its auth scheme and whether
// it may be sent twice (the retry table is in README.md, "Retries"). The record-
// creating ones need their body: an answer given before it went out proves them
// unprocessed (see pipeline.Request.NeedsBody).
var (
	endpointListProducts         = endpoint{http.MethodGet, "/v1/products", AuthBasic, pipeline.Idempotent, false}
	endpointQuoteTravel          = endpoint{http.MethodPost, "/v1/quote/travel", AuthBasicOrClientID, pipeline.Idempotent, false}
	endpointQuoteGapMedical      = endpoint{http.MethodPost, "/v1/quote/gap-medical", AuthClientID, pipeline.Idempotent, false}
	endpointPurchaseTuition      = endpoint{http.MethodPost, "/v1/purchase/tuition", AuthBasic, pipeline.CreatesRecord, true}
	endpointPurchaseGapMedical   = endpoint{http.MethodPost, "/v1/purchase/gap-medical", Auth{scheme: schemeBearer}, pipeline.CreatesRecord, true}
	endpointCreateCustomerSecret = endpoint{http.MethodPost, "/v1/auth/customer/secret", AuthBasic, pipeline.Idempotent, false}
	endpointOnboardPartner       = endpoint{http.MethodPost, "/v1/partners/onboard", AuthBasic, pipeline.CreatesRecord, true}
	endpointCreateEvent          = endpoint{http.MethodPost, "/v1/events", AuthBasic, pipeline.CreatesRecord, true}
)

// credentials are the partner's. The client secret and the Basic header value built
// from it sit in a closure, out of reach of reflection: fmt's %+v of a Client value,
// testify's diff of two Clients and a debugger's dump show neither.
type credentials struct {
	clientID string
	keys     func() (clientSecret, basic string) // nil: no client secret
}

func newCredentials(id, secret string) credentials {
	c := credentials{clientID: id}
	if secret != "" {
		basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(id+":"+secret))
		c.keys = func() (string, string) { return secret, basic }
	}
	return c
}

// Format prints the client id and whether a secret is set, never the secret.
func (c credentials) Format(f fmt.State, verb rune) {
	secret := "none"
	if c.keys != nil {
		secret = "[redacted]"
	}
	fmt.Fprintf(f, "{ClientID: %q, ClientSecret: %s}", c.clientID, secret)
}

// authorize returns the one header the call carries; or, when the Client lacks what
// the call's scheme needs, or the customer secret is not one, an error: nothing is
// sent.
func (c *credentials) authorize(ep endpoint) (header, value string, err error) {
	var clientSecret, basic string
	if c.keys != nil {
		clientSecret, basic = c.keys()
	}
	missing := func(need string) error { return &credentialError{method: ep.method, path: ep.path, need: need} }
	switch ep.auth.scheme {
	case schemeNone:
		return "", "", nil
	case schemeBasic:
		if basic == "" {
			return "", "", missing("Basic auth needs WithCredentials(client id, client secret)")
		}
		return "Authorization", basic, nil
	case schemeClientID:
		if c.clientID == "" {
			return "", "", missing("this call needs a client id (WithClientID or WithCredentials)")
		}
		return HeaderClientID, c.clientID, nil
	case schemeBasicOrClientID:
		if basic != "" {
			return "Authorization", basic, nil
		}
		if c.clientID == "" {
			return "", "", missing("this call needs WithCredentials, or a client id (WithClientID)")
		}
		return HeaderClientID, c.clientID, nil
	case schemeBearer:
		secret := ep.auth.bearer
		switch {
		case secret == "":
			return "", "", missing("this call needs a customer client secret: mint one with CreateCustomerSecret")
		case secret == clientSecret:
			return "", "", &ValidationError{Field: "customer secret", Problem: "is the partner's client secret, which must never travel as a Bearer token: mint a customer secret with CreateCustomerSecret"}
		case secret == c.clientID:
			return "", "", &ValidationError{Field: "customer secret", Problem: "is the partner's client id, not a customer secret: mint a customer secret with CreateCustomerSecret"}
		case strings.ContainsAny(secret, "\r\n\x00 "):
			return "", "", &ValidationError{Field: "customer secret", Problem: "contains spaces or control characters"}
		}
		return "Authorization", "Bearer " + secret, nil
	}
	return "", "", missing("unknown auth scheme")
}

// credentialError is ErrMissingCredentials for one call, naming it once.
type credentialError struct{ method, path, need string }

// Error names the call and what it needs.
func (e *credentialError) Error() string {
	return "insurance: " + e.method + " " + e.path + ": missing credentials: " + e.need
}

// Is matches ErrMissingCredentials.
func (e *credentialError) Is(target error) bool { return target == ErrMissingCredentials }
