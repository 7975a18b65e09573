// Command events records an insured event (POST /v1/events).
//
//	go run ./examples/events -name "Partner Summit" -start 2027-06-01 -end 2027-06-03 -city Chicago
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli"
	"github.com/partnerinsure/insurance-go/examples/internal/connect"
)

// about is the usage's account of the program, as in the package doc.
const about = "events records an insured event (POST /v1/events)."

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cli.ExitOnError("events", run(ctx, os.Args[1:], os.Stdout))
}

func run(ctx context.Context, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("events", flag.ContinueOnError)
	name := flags.String("name", "Partner Summit", "event name")
	start := flags.String("start", "2027-06-01", "event start date, YYYY-MM-DD")
	end := flags.String("end", "2027-06-03", "event end date, YYYY-MM-DD")
	city := flags.String("city", "Chicago", "event city")
	if err := cli.Parse(flags, args, out, about, connect.Help); err != nil {
		return err
	}
	startDate, err := insurance.ParseDate(*start)
	if err != nil {
		return err
	}
	endDate, err := insurance.ParseDate(*end)
	if err != nil {
		return err
	}
	env, closeEnv, err := connect.Open(out)
	if err != nil {
		return err
	}
	defer closeEnv()

	event, err := env.Backend.CreateEvent(ctx, &insurance.CreateEventRequest{
		EventName:      *name,
		EventStartDate: startDate,
		EventEndDate:   endDate,
		EventCity:      *city,
		EventCountry:   "US",
	})
	var apiErr *insurance.APIError
	if errors.As(err, &apiErr) {
		// The events error body: error, error_code, message, reason, status.
		return fmt.Errorf("event refused: %s (%s, reason %s)", apiErr.Message, apiErr.Code, apiErr.Reason)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Event %q recorded: id %s, %s to %s\n", event.EventName, event.ID, event.EventStartDate, event.EventEndDate)
	rbp := event.Attributes.RoomBlockProtection
	fmt.Fprintf(out, "Insurance required: %t (%s); room block protection: enabled %t, rate %.2f, %s\n",
		event.InsuranceRequired, event.InsuranceRequirementsType, rbp.Enabled, rbp.Rate, rbp.EventType)
	return nil
}
