package insurance

import (
	"bytes"
	"context"
	"encoding/json"
)

// ProductList is the answer of ListProducts.
type ProductList struct {
	Response `json:"-"`
	Products []Product
}

// Product is one product as the service describes it. The interface does not show
// the fields of a product: ID and Name are filled when the body carries "id" and
// "name", and Raw keeps the whole object (see Decode).
type Product struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Raw  json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps the product's raw object beside its typed fields.
func (p *Product) UnmarshalJSON(b []byte) error {
	type plain Product
	if err := json.Unmarshal(b, (*plain)(p)); err != nil {
		return err
	}
	p.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// Decode decodes the product's raw object into v.
func (p *Product) Decode(v any) error {
	return (&Response{Raw: p.Raw}).Decode(v)
}

// UnmarshalJSON accepts the two plausible shapes of a list, as the interface does not
// show which one the service sends: a bare array, or an object with "products" (or
// "data") holding it.
func (l *ProductList) UnmarshalJSON(b []byte) error {
	if bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("[")) {
		return json.Unmarshal(b, &l.Products)
	}
	var wrapped struct {
		Products []Product `json:"products"`
		Data     []Product `json:"data"`
	}
	if err := json.Unmarshal(b, &wrapped); err != nil {
		return err
	}
	l.Products = wrapped.Products
	if l.Products == nil {
		l.Products = wrapped.Data
	}
	return nil
}

// ListProducts lists the products the partner can sell (GET /v1/products, Basic auth).
func (c *Client) ListProducts(ctx context.Context) (*ProductList, error) {
	return send[ProductList](ctx, c, routeListProducts, nil)
}
