package pipeline

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestReadCapped: bodies of known and unknown length are read whole up to the cap,
// cut at the cap beyond it, and a short body is an error.
func TestReadCapped(t *testing.T) {
	const limit = 1000
	body := bytes.Repeat([]byte("x"), 3000)
	for _, tc := range []struct {
		name    string
		size    int   // bytes the server sends
		length  int64 // Content-Length; -1: unknown
		wantLen int
		wantErr error // nil: no error
	}{
		{"known, empty", 0, 0, 0, nil},
		{"known, under the cap", 999, 999, 999, nil},
		{"known, at the cap", 1000, 1000, 1000, nil},
		{"known, shorter than said", 500, 600, 500, io.ErrUnexpectedEOF},
		{"unknown, empty", 0, -1, 0, nil},
		{"unknown, under the cap", 999, -1, 999, nil},
		{"unknown, at the cap", 1000, -1, 1000, nil},
		{"unknown, one over the cap", 1001, -1, 1000, ErrResponseTooLarge},
		{"unknown, far over the cap", 3000, -1, 1000, ErrResponseTooLarge},
		{"known, over the cap", 3000, 3000, 1000, ErrResponseTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readCapped(bytes.NewReader(body[:tc.size]), tc.length, limit)
			assert.Len(t, got, tc.wantLen)
			if tc.wantErr == nil {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, tc.wantErr)
		})
	}
	_, err := readCapped(io.MultiReader(strings.NewReader("abc"), errReader{}), -1, limit)
	assert.ErrorContains(t, err, "reading response body: broken")
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("broken") }
