package pipeline

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// A body of unknown length is read whole whatever its size around the pooled
// buffer's, refused past the limit, and never shares memory with the buffer, which
// the next body reuses.
func TestABodyOfUnknownLengthIsReadWholeAndCopiedOut(t *testing.T) {
	const limit = 4 * pooledRead
	for _, size := range []int{0, 1, pooledRead - 1, pooledRead, pooledRead + 1, limit, limit + 1} {
		want := bytes.Repeat([]byte{'x'}, size)
		body, err := readCapped(iotest.HalfReader(bytes.NewReader(want)), -1, limit)
		if size > limit {
			if !errors.Is(err, ErrResponseTooLarge) || len(body) != limit {
				t.Errorf("%d bytes: got %d bytes and %v, want the first %d and ErrResponseTooLarge", size, len(body), err, limit)
			}
			continue
		}
		if err != nil || !bytes.Equal(body, want) {
			t.Errorf("%d bytes: got %d bytes and %v", size, len(body), err)
		}
		next, _ := readCapped(bytes.NewReader(bytes.Repeat([]byte{'y'}, size)), -1, limit)
		if !bytes.Equal(body, want) || len(next) != size {
			t.Errorf("%d bytes: reading the next body changed this one", size)
		}
	}
}

// A body that breaks off keeps what was read and says why, on both paths.
func TestABodyThatBreaksOffKeepsWhatWasRead(t *testing.T) {
	cut := errors.New("connection reset")
	for _, length := range []int64{-1, 100} {
		body, err := readCapped(io.MultiReader(bytes.NewReader([]byte("partial")), iotest.ErrReader(cut)), length, MaxSuccessBody)
		if !errors.Is(err, cut) || string(body) != "partial" {
			t.Errorf("length %d: got %q and %v, want \"partial\" and the cause", length, body, err)
		}
	}
	body, err := readCapped(iotest.ErrReader(io.ErrUnexpectedEOF), -1, MaxSuccessBody)
	if !errors.Is(err, io.ErrUnexpectedEOF) || len(body) != 0 {
		t.Errorf("a chunked body cut before its first byte: got %q and %v", body, err)
	}
}

// The read buffers outlive garbage collections, where a sync.Pool's would not: a body
// of unknown length read after two collections takes a kept buffer, and allocates its
// copy rather than a new 16 KiB buffer (at 1 MB answers the collector runs every call
// or two).
func TestReadBuffersOutliveCollections(t *testing.T) {
	body := bytes.Repeat([]byte{'x'}, 100)
	read := func() {
		_, err := readCapped(bytes.NewReader(body), -1, MaxSuccessBody)
		require.NoError(t, err)
	}
	read() // a buffer is kept
	const reads = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range reads {
		runtime.GC()
		runtime.GC()
		read()
	}
	runtime.ReadMemStats(&after)
	perRead := (after.TotalAlloc - before.TotalAlloc) / reads
	t.Logf("%d bytes a read", perRead)
	assert.Less(t, perRead, uint64(pooledRead/4), "bytes allocated a read")
}
