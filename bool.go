package insurance

// Bool returns a pointer to v, for the boolean request fields (EmailQuote,
// Subscription, SaveForFutureUse, TravelRetailer): nil is not sent, Bool(false) sends
// false. The interface shows no defaults, so a field left nil leaves the choice to
// the service.
func Bool(v bool) *bool { return &v }
