package pipeline

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

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
