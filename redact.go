package insurance

import (
	"fmt"
	"log/slog"
	"strings"
)

// The request and result types that hold a card number, a verification code, an
// account number or a secret mask them wherever they are printed: with fmt (Format)
// and with log/slog (LogValue, which slog's JSON and text handlers both honour). A
// logger that marshals with encoding/json itself (zap's Any, zerolog's Interface)
// sees the raw fields: log these values with slog or fmt, or not at all.

// Format prints the card with its number and verification code masked.
func (c Card) Format(f fmt.State, verb rune) { format(f, verb, c.masked()) }

// LogValue is the card for log/slog, masked as Format masks it.
func (c Card) LogValue() slog.Value { return slog.AnyValue(c.masked()) }

// maskedCard is a Card without its methods, masked.
type maskedCard Card

func (c Card) masked() maskedCard {
	m := maskedCard(c)
	m.Number, m.Verification = mask(c.Number), mask(c.Verification)
	return m
}

// Format prints the bank account with its account number masked.
func (a BankAccount) Format(f fmt.State, verb rune) { format(f, verb, a.masked()) }

// LogValue is the bank account for log/slog, masked as Format masks it.
func (a BankAccount) LogValue() slog.Value { return slog.AnyValue(a.masked()) }

type maskedBankAccount BankAccount

func (a BankAccount) masked() maskedBankAccount {
	m := maskedBankAccount(a)
	m.AccountNumber = mask(a.AccountNumber)
	return m
}

// Format prints the bank account with its account number masked.
func (a PartnerBankAccount) Format(f fmt.State, verb rune) { format(f, verb, a.masked()) }

// LogValue is the bank account for log/slog, masked as Format masks it.
func (a PartnerBankAccount) LogValue() slog.Value { return slog.AnyValue(a.masked()) }

type maskedPartnerBankAccount PartnerBankAccount

func (a PartnerBankAccount) masked() maskedPartnerBankAccount {
	m := maskedPartnerBankAccount(a)
	m.ACHAccountNumber = mask(a.ACHAccountNumber)
	return m
}

// LogValue is the payment method for log/slog, its card and bank account masked.
func (m PaymentMethod) LogValue() slog.Value { return slog.AnyValue(m.masked()) }

// maskedPaymentMethod is a PaymentMethod whose card and bank account are masked
// copies: encoding/json (slog's JSON handler) and fmt print them masked.
type maskedPaymentMethod struct {
	Card             *maskedCard        `json:"card,omitempty"`
	BankAccount      *maskedBankAccount `json:"bank_account,omitempty"`
	Token            string             `json:"token,omitempty"`
	SaveForFutureUse *bool              `json:"save_for_future_use,omitempty"`
}

func (m PaymentMethod) masked() maskedPaymentMethod {
	out := maskedPaymentMethod{Token: m.Token, SaveForFutureUse: m.SaveForFutureUse}
	if m.Card != nil {
		card := m.Card.masked()
		out.Card = &card
	}
	if m.BankAccount != nil {
		account := m.BankAccount.masked()
		out.BankAccount = &account
	}
	return out
}

// LogValue is the request for log/slog, its payment method masked.
func (r TuitionPurchaseRequest) LogValue() slog.Value {
	type request TuitionPurchaseRequest // no LogValue: slog would call it again
	shown := request(r)
	shown.PaymentMethod = PaymentMethod{} // shown masked beside it
	return slog.AnyValue(struct {
		request
		PaymentMethod maskedPaymentMethod `json:"payment_method,omitzero"`
	}{shown, r.PaymentMethod.masked()})
}

// LogValue is the request for log/slog, its payment method masked.
func (r GapMedicalPurchaseRequest) LogValue() slog.Value {
	type request GapMedicalPurchaseRequest
	shown := request(r)
	shown.PaymentMethod = PaymentMethod{}
	return slog.AnyValue(struct {
		request
		PaymentMethod maskedPaymentMethod `json:"payment_method"`
	}{shown, r.PaymentMethod.masked()})
}

// LogValue is the request for log/slog, its bank account masked.
func (r OnboardPartnerRequest) LogValue() slog.Value {
	type request OnboardPartnerRequest
	shown := request(r)
	var account *maskedPartnerBankAccount
	if r.BankAccount != nil {
		masked := r.BankAccount.masked()
		account, shown.BankAccount = &masked, nil
	}
	return slog.AnyValue(struct {
		request
		BankAccount *maskedPartnerBankAccount `json:"bank_account,omitempty"`
	}{shown, account})
}

// Format prints the email address and hides the secret.
func (s CustomerSecret) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, "insurance.CustomerSecret{EmailAddress: %q, Secret: [redacted]}", s.EmailAddress)
}

// String returns the email address and a redacted secret.
func (s CustomerSecret) String() string { return fmt.Sprint(s) }

// LogValue is the customer secret for log/slog: its email address, never the secret.
func (s CustomerSecret) LogValue() slog.Value {
	return slog.GroupValue(slog.String("email_address", s.EmailAddress), slog.String("secret", "[redacted]"))
}

// format prints v, a masked copy, with the verb and flags f was given.
func format(f fmt.State, verb rune, v any) { fmt.Fprintf(f, fmt.FormatString(f, verb), v) }

// mask keeps the last four characters of a long number and hides the rest.
func mask(s string) string {
	if s == "" {
		return ""
	}
	if len(s) < 10 {
		return "[redacted]"
	}
	return strings.Repeat("*", len(s)-4) + s[len(s)-4:]
}
