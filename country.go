package insurance

// Country is a two-letter country code (ISO 3166-1 alpha-2, "US"), the type of every
// country field of the requests and results: a customer's, a trip's origin and
// destinations, a bank account's, an event's and its additional insured's, a
// partner's. Codes the SDK does not name are written as they are: Country("FR"), or
// the literal "FR" in a field. Values coming back from the server are kept as they
// are.
type Country string

// Countries the interface names: the two a partner can be onboarded in (the Country
// of an OnboardPartnerRequest must be one of them). Every other country field takes
// them too.
const (
	CountryUS Country = "US"
	CountryCA Country = "CA"
)
