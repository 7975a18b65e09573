package sandbox

import (
	"bytes"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"sync"

	"github.com/google/uuid"
)

// idKind names one stream of ids. Each kind draws from a stream of its own, so that
// with a seed the ids of one kind depend only on how many of that kind came before:
// the quote ids of a run do not shift when it logs one request more.
type idKind uint64

const (
	idCredentials idKind = iota + 1 // partner client ids and client secrets
	idQuote
	idPolicy
	idCustomerSecret
	idPartner // onboarded partners
	idEvent
	idRequest // X-Request-Id
)

// idSource draws ids and secrets: from crypto/rand, or, with a seed, from one ChaCha8
// stream per kind keyed by the seed, so the same calls in the same order give the
// same ids. Safe for concurrent use.
type idSource struct {
	seed    *int64
	mu      sync.Mutex
	streams map[idKind]*rand.ChaCha8
}

func newIDSource(seed *int64) *idSource {
	if seed != nil {
		own := *seed
		seed = &own
	}
	return &idSource{seed: seed, streams: map[idKind]*rand.ChaCha8{}}
}

// read fills b with the next bytes of kind's stream.
func (g *idSource) read(kind idKind, b []byte) {
	if g.seed == nil {
		_, _ = crand.Read(b)
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	stream := g.streams[kind]
	if stream == nil {
		var key [32]byte
		binary.LittleEndian.PutUint64(key[0:], uint64(*g.seed))
		binary.LittleEndian.PutUint64(key[8:], uint64(kind))
		stream = rand.NewChaCha8(key)
		g.streams[kind] = stream
	}
	_, _ = stream.Read(b)
}

// hex returns n bytes of kind's stream in hex.
func (g *idSource) hex(kind idKind, n int) string {
	b := make([]byte, n)
	g.read(kind, b)
	return hex.EncodeToString(b)
}

// uuid returns a version 4 uuid from kind's stream.
func (g *idSource) uuid(kind idKind) string {
	var b [16]byte
	g.read(kind, b[:])
	u, _ := uuid.NewRandomFromReader(bytes.NewReader(b[:])) // 16 bytes: cannot fail
	return u.String()
}
