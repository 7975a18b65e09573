package sandbox

import (
	_ "embed"
)

// store is a map that forgets its oldest entries beyond a cap, so a long-running
// sandbox does not grow without bound; it keeps the order of insertion. The caller
// holds the Sandbox's lock.
type store[T any] struct {
	max   int
	items map[string]T
	order []string
}

func newStore[T any](max int) *store[T] {
	return &store[T]{max: max, items: map[string]T{}}
}

func (s *store[T]) get(id string) (T, bool) {
	v, ok := s.items[id]
	return v, ok
}

func (s *store[T]) put(id string, v T) {
	if _, exists := s.items[id]; !exists {
		s.order = append(s.order, id)
	}
	s.items[id] = v
	for len(s.items) > s.max {
		delete(s.items, s.order[0])
		s.order = s.order[1:]
	}
}

// all returns the items, oldest first.
func (s *store[T]) all() []T {
	out := make([]T, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.items[id])
	}
	return out
}
