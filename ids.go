package insurance

import (
	"encoding/json"
	"fmt"
)

// answerIDs are the ids a quote or purchase answer may carry. The interface does not
// show those answers: "id" is the fallback of a body that does not name its id. (A
// type without methods: encoding/json looks each type with methods up for an
// Unmarshaler, on every call.)
type answerIDs struct {
	QuoteID  idText          `json:"quote_id"`
	PolicyID idText          `json:"policy_id"`
	ID       json.RawMessage `json:"id"`
}

// decodeIDs decodes the ids of an answer in one pass.
func decodeIDs(body []byte) (ids answerIDs, fallback string, err error) {
	if err := json.Unmarshal(body, &ids); err != nil {
		return answerIDs{}, "", err
	}
	var id idText
	if len(ids.ID) > 0 && json.Unmarshal(ids.ID, &id) == nil {
		fallback = string(id) // "" when "id" is neither a string nor a number
	}
	return ids, fallback, nil
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
