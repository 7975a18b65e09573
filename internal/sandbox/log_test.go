package sandbox

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAuthScheme(t *testing.T) {
	for want, header := range map[string]http.Header{
		"none":            {},
		"basic":           {"Authorization": {"Basic YTpi"}},
		"bearer":          {"Authorization": {"Bearer cus_sec_x"}},
		"client-id":       {"X-Api-Client-Id": {"ci"}},
		"basic+client-id": {"Authorization": {"Basic YTpi"}, "X-Api-Client-Id": {"ci"}},
		"other":           {"Authorization": {"Token x"}},
	} {
		assert.Equal(t, want, authScheme(header))
	}
}

func TestLoggedBodyIsCutAt64KiBInMemoryOfItsOwn(t *testing.T) {
	body := []byte(`{"number":"4242424242424242","x":"` + strings.Repeat("y", MaxLoggedBodyBytes) + `"}`)
	logged, truncated := loggedBody(body)
	assert.True(t, truncated)
	assert.Len(t, logged, MaxLoggedBodyBytes)
	assert.Equal(t, MaxLoggedBodyBytes, cap(logged), "a slice of the body read would keep all of it")
	assert.True(t, bytes.HasPrefix(logged, []byte(`{"number":"************4242","x":"yyy`)), "masked, then cut")

	logged, truncated = loggedBody([]byte(`{"x":1}`))
	assert.False(t, truncated)
	assert.Equal(t, `{"x":1}`, string(logged))
	logged, truncated = loggedBody(nil)
	assert.False(t, truncated)
	assert.Nil(t, logged)
}

func TestLoggedHeadKeeps8KiBWithoutCredentials(t *testing.T) {
	r := httptest.NewRequest("POST", "/v1/events", nil)
	r.Header = http.Header{
		"Authorization": {"Basic YTpi"}, "Cookie": {"c=1"}, "X-Api-Client-Id": {"ci"}, "Proxy-Authorization": {"p"},
		"A-Big": {strings.Repeat("b", MaxLoggedHeaderBytes)}, "Content-Type": {"application/json"}, "Z-Last": {"z"},
	}
	path, header, truncated := loggedHead(r)
	assert.Equal(t, "/v1/events", path)
	assert.True(t, truncated)
	assert.Equal(t, http.Header{"Content-Type": {"application/json"}, "Z-Last": {"z"}}, header)

	r = httptest.NewRequest("GET", "/"+strings.Repeat("p", MaxLoggedHeaderBytes), nil)
	path, _, truncated = loggedHead(r)
	assert.True(t, truncated)
	assert.Len(t, path, MaxLoggedHeaderBytes/2)

	r = httptest.NewRequest("GET", "/v1/products", nil)
	r.Header = http.Header{"Accept": {"application/json"}}
	path, header, truncated = loggedHead(r)
	assert.False(t, truncated)
	assert.Equal(t, "/v1/products", path)
	assert.Equal(t, r.Header, header)
}

// TestTheLogForgetsTheOldestEntries: past MaxRecords the oldest entry goes, and the
// log's array does not keep it.
func TestTheLogForgetsTheOldestEntries(t *testing.T) {
	s := New(Config{})
	first := weak.Make(s.record(httptest.NewRequest("GET", "/first", nil), nil))
	for range MaxRecords {
		s.record(httptest.NewRequest("GET", "/nope", nil), nil)
	}
	require.Len(t, s.log, MaxRecords)
	assert.Equal(t, "/nope", s.log[0].Path)
	runtime.GC()
	assert.Nil(t, first.Value(), "the forgotten entry is still held")
	runtime.KeepAlive(s)
}
