package insurance

import (
	"fmt"
	"strconv"
	"time"
)

// Date is a calendar day with no time zone, sent as "YYYY-MM-DD". The zero Date means
// "not set" and is left out of request bodies.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

const dateLayout = "2006-01-02"

// NewDate returns the Date of year, month and day, normalised as time.Date does
// (February 30 becomes March 2).
func NewDate(year int, month time.Month, day int) Date {
	return DateOf(time.Date(year, month, day, 0, 0, 0, 0, time.UTC))
}

// DateOf returns the calendar day of t in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// ParseDate parses "YYYY-MM-DD" strictly.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(dateLayout, s)
	if err != nil {
		return Date{}, fmt.Errorf("insurance: date %q: want YYYY-MM-DD", s)
	}
	return DateOf(t), nil
}

// String returns "YYYY-MM-DD", or "" for the zero Date.
func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return string(d.appendText(make([]byte, 0, len(dateLayout))))
}

// appendText appends "YYYY-MM-DD" to b: what fmt's "%04d-%02d-%02d" gives, without
// its boxing and copies (three dates per travel quote).
func (d Date) appendText(b []byte) []byte {
	b = appendZeroPadded(b, d.Year, 4)
	b = append(b, '-')
	b = appendZeroPadded(b, int(d.Month), 2)
	b = append(b, '-')
	return appendZeroPadded(b, d.Day, 2)
}

// appendZeroPadded appends n in decimal, zero-padded to width like fmt's "%0*d": the
// sign counts towards the width.
func appendZeroPadded(b []byte, n, width int) []byte {
	magnitude := uint64(n)
	if n < 0 {
		b = append(b, '-')
		magnitude = -magnitude
		width--
	}
	var digits [20]byte
	text := strconv.AppendUint(digits[:0], magnitude, 10)
	for range width - len(text) {
		b = append(b, '0')
	}
	return append(b, text...)
}

// IsZero reports whether d is the zero Date (not set).
func (d Date) IsZero() bool { return d == Date{} }

// Time returns midnight UTC of d.
func (d Date) Time() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }

// Before reports whether d is an earlier day than other.
func (d Date) Before(other Date) bool { return d.Time().Before(other.Time()) }

// MarshalText encodes d as "YYYY-MM-DD"; JSON uses it.
func (d Date) MarshalText() ([]byte, error) {
	if !d.IsZero() && (d.Year < 0 || d.Year > 9999) {
		return nil, fmt.Errorf("insurance: date year %d out of range", d.Year)
	}
	if d.IsZero() {
		return []byte{}, nil
	}
	return d.appendText(make([]byte, 0, len(dateLayout))), nil
}

// UnmarshalText decodes "YYYY-MM-DD"; an empty string is the zero Date.
func (d *Date) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = Date{}
		return nil
	}
	parsed, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = parsed
	return nil
}
