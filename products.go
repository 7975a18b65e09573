package insurance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// ProductList is the answer of ListProducts.
type ProductList struct {
	Response `json:"-"`
	Products []Product
}

// Product is one product. The interface does not show the fields of a product: ID and
// Name are filled when the body carries "id" and "name"; DecodeProducts gives every
// field the service sent.
type Product struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// UnmarshalJSON accepts the two plausible shapes of a list, as the interface does not
// show which one the service sends: a bare array, or an object holding the array in
// "products" (or "data").
func (l *ProductList) UnmarshalJSON(b []byte) error { return l.decodeBody(b) }

func (l *ProductList) decodeBody(b []byte) error { return decodeList(b, &l.Products) }

// DecodeProducts decodes the products as the service sent them into v, a pointer to a
// slice of the caller's own product type, whatever the shape of the list.
func (l *ProductList) DecodeProducts(v any) error {
	var products []json.RawMessage
	err := decodeList(l.Raw, &products)
	if err == nil {
		var array []byte
		if array, err = json.Marshal(products); err == nil {
			err = json.Unmarshal(array, v)
		}
	}
	if err != nil {
		return fmt.Errorf("insurance: decoding products: %w", err)
	}
	return nil
}

// decodeList decodes a bare array, or the array held in "products" or "data".
func decodeList[T any](b []byte, out *[]T) error {
	if bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n"), []byte("[")) {
		return json.Unmarshal(b, out)
	}
	var wrapped struct {
		Products []T `json:"products"`
		Data     []T `json:"data"`
	}
	if err := json.Unmarshal(b, &wrapped); err != nil {
		return err
	}
	*out = wrapped.Products
	if *out == nil {
		*out = wrapped.Data
	}
	return nil
}

// ListProducts lists the products the partner can sell (GET /v1/products, Basic auth).
func (c *Client) ListProducts(ctx context.Context, opts ...Option) (*ProductList, error) {
	out := new(ProductList)
	_, err := c.call(ctx, endpointListProducts, nil, out, opts)
	return result(out, err)
}
