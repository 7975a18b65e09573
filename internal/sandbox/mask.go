package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf8"
)

// sensitiveKeys are the JSON keys whose values are masked in a logged body: card
// numbers and verification codes, bank and ACH account numbers. They are matched as
// encoding/json matches a key to a field, case-insensitively (strings.EqualFold):
// "Number" and "NUMBER" fill the same field as "number", so they are masked too.
var sensitiveKeys = []string{"number", "verification", "account_number", "ach_account_number"}

// isSensitiveKey reports whether the decoder would take key for one of sensitiveKeys.
func isSensitiveKey(key string) bool {
	for _, k := range sensitiveKeys {
		if strings.EqualFold(key, k) {
			return true
		}
	}
	return false
}

// maskBody returns body as received but for the values of sensitiveKeys, masked
// (every string and number within them, however nested). A body that is not one JSON
// value (malformed, cut at the size limit) has every digit masked instead: a
// verification code or a spaced card number may be anywhere in it.
func maskBody(body []byte) []byte {
	if holdsNoSensitiveKey(body) {
		return body
	}
	spans, ok := sensitiveSpans(body)
	if !ok {
		return maskDigits(body)
	}
	var out bytes.Buffer
	last := 0
	for _, sp := range spans {
		out.Write(body[last:sp.start])
		raw := strings.Trim(string(body[sp.start:sp.end]), `"`)
		masked, _ := json.Marshal(mask(raw))
		out.Write(masked)
		last = sp.end
	}
	out.Write(body[last:])
	return out.Bytes()
}

// maskDigits returns a copy of body with every ASCII digit replaced by '*'.
func maskDigits(body []byte) []byte {
	out := bytes.Clone(body)
	for i, c := range out {
		if '0' <= c && c <= '9' {
			out[i] = '*'
		}
	}
	return out
}

// holdsNoSensitiveKey reports, cheaply, a body that maskBody would return unchanged:
// one valid JSON value of ASCII text in which no sensitive key can stand, in any case,
// not even spelt with escapes. Most bodies are such; the others take the full walk,
// which compares keys as the decoder does (a non-ASCII letter may fold to an ASCII
// one: the Kelvin sign to k).
func holdsNoSensitiveKey(body []byte) bool {
	if bytes.IndexByte(body, '\\') >= 0 || !isASCII(body) || !json.Valid(body) {
		return false
	}
	for i := bytes.IndexByte(body, '"'); i >= 0; {
		rest := body[i+1:]
		end := bytes.IndexByte(rest, '"')
		if end < 0 {
			return true
		}
		if isSensitiveKey(string(rest[:end])) {
			return false
		}
		next := bytes.IndexByte(rest[end+1:], '"')
		if next < 0 {
			return true
		}
		i += 1 + end + 1 + next
	}
	return true
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// mask keeps the last four characters of a long value (ten or more), and nothing of a
// short one, as the SDK masks what it prints.
func mask(v string) string {
	if len(v) < 10 {
		return strings.Repeat("*", len(v))
	}
	return strings.Repeat("*", len(v)-4) + v[len(v)-4:]
}

type span struct{ start, end int }

// sensitiveSpans finds where the string and number values under sensitiveKeys lie in
// a JSON body; ok is false when body is not one JSON value.
func sensitiveSpans(body []byte) (spans []span, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct{ object, wantKey, masked bool }
	var stack []frame
	key := ""
	values := 0 // top-level values: a body is one
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return spans, err == io.EOF && values == 1 && len(stack) == 0
		}
		top := len(stack) - 1
		if top < 0 {
			if values++; values > 1 {
				return nil, false
			}
		}
		// A value is masked when it is under a sensitive key, or within a container
		// that is.
		isValue := top >= 0 && !(stack[top].object && stack[top].wantKey)
		masked := isValue && (stack[top].masked || (stack[top].object && isSensitiveKey(key)))
		if d, isDelim := tok.(json.Delim); isDelim {
			switch d {
			case '{', '[':
				stack = append(stack, frame{object: d == '{', wantKey: d == '{', masked: masked})
			default:
				if stack = stack[:top]; top > 0 && stack[top-1].object {
					stack[top-1].wantKey = true
				}
			}
			continue
		}
		if !isValue {
			if top >= 0 { // a key
				key, _ = tok.(string)
				stack[top].wantKey = false
			}
			continue
		}
		if stack[top].object {
			stack[top].wantKey = true
		}
		switch tok.(type) {
		case string, json.Number, float64:
			if masked {
				end := int(dec.InputOffset())
				start := end - len(bytes.TrimLeft(body[before:end], " \t\r\n:,"))
				spans = append(spans, span{start, end})
			}
		}
	}
}
