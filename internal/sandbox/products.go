package sandbox

import (
	"net/http"
)

// Product lines with a path in the interface.
const (
	productGapMedical = "gap-medical"
	productTravel     = "travel"
	productTuition    = "tuition"
)

func (s *Sandbox) listProducts([]byte, caller) (int, any, error) {
	return http.StatusOK, map[string]any{"products": []map[string]string{
		{"id": productGapMedical, "name": "Gap medical", "quote_path": "/v1/quote/gap-medical", "purchase_path": "/v1/purchase/gap-medical"},
		{"id": productTravel, "name": "Travel", "quote_path": "/v1/quote/travel"},
		{"id": productTuition, "name": "Tuition", "purchase_path": "/v1/purchase/tuition"},
	}}, nil
}
