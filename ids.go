package insurance

import (
	"encoding/json"
	"fmt"
)

// answerIDs are the ids a quote or purchase answer may carry. The interface does not
// show those answers: "id" is the fallback of a body that does not name its id.
type answerIDs struct {
	QuoteID  idText          `json:"quote_id"`
	PolicyID idText          `json:"policy_id"`
	ID       json.RawMessage `json:"id"`
}

// fallback is the answer's "id" as text; "" when it is absent or neither a string
// nor a number.
func (a answerIDs) fallback() string {
	var id idText
	if json.Unmarshal(a.ID, &id) != nil {
		return ""
	}
	return string(id)
}

// idText is an id the interface types as a string. One that arrives as a JSON
// number is kept as its decimal text, exactly as sent.
type idText string

// UnmarshalJSON accepts a string, a number or null.
func (id *idText) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, (*string)(id))
	}
	if string(b) == "null" {
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("an id must be a string or a number, not %.20s", b)
	}
	*id = idText(n)
	return nil
}
