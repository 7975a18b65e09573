package insurance

import (
	"net/http"
	"testing"
)

// The pipeline sets header keys as given, so the client id header's must be canonical.
func TestClientIDKeyIsCanonical(t *testing.T) {
	if got := http.CanonicalHeaderKey(HeaderClientID); got != clientIDKey {
		t.Fatalf("clientIDKey = %q, want %q", clientIDKey, got)
	}
}
