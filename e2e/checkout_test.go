// Package e2e drives the gap-medical checkout example in headless Chromium against
// the sandbox: the client-side purchase flow end to end, in a real browser. It is a
// module of its own so the browser driver stays out of the SDK's go.mod.
//
//	cd e2e && go test ./...
//
// It needs Chromium (/usr/bin/chromium, or CHROMIUM=path); .ci/run installs it.
// The screenshot of the success page goes to E2E_ARTIFACTS (default e2e/artifacts).
package e2e

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

func TestCheckoutInARealBrowser(t *testing.T) {
	browser := newBrowser(t)
	checkout := startCheckout(t)
	expiring := startCheckout(t, "-secret-ttl", "1s")

	t.Run("a valid card buys a policy", func(t *testing.T) {
		ctx := newTab(t, browser)
		var result string
		var screenshot []byte
		err := chromedp.Run(ctx,
			openCheckout(checkout, "ada@example.com"),
			fillCard("4242 4242 4242 4242"),
			chromedp.Click("#buy", chromedp.ByID),
			chromedp.WaitVisible("#result.ok", chromedp.ByQuery),
			chromedp.Text("#result", &result, chromedp.ByID),
			chromedp.FullScreenshot(&screenshot, 100), // 100: PNG
		)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(result, "Policy pol_") || !strings.Contains(result, "issued") {
			t.Fatalf("result %q, want the policy id", result)
		}
		saveArtifact(t, "checkout-success.png", screenshot)
	})

	t.Run("the declined test card shows the 402 message", func(t *testing.T) {
		ctx := newTab(t, browser)
		var result string
		err := chromedp.Run(ctx,
			openCheckout(checkout, "bob@example.com"),
			fillCard("4000000000000002"),
			chromedp.Click("#buy", chromedp.ByID),
			chromedp.WaitVisible("#result.error", chromedp.ByQuery),
			chromedp.Text("#result", &result, chromedp.ByID),
		)
		if err != nil {
			t.Fatal(err)
		}
		if result != "Payment declined: please try another card." {
			t.Fatalf("result %q, want the declined message", result)
		}
	})

	t.Run("an expired customer secret shows the 401 message", func(t *testing.T) {
		ctx := newTab(t, browser)
		var result string
		err := chromedp.Run(ctx,
			openCheckout(expiring, "carol@example.com"),
			fillCard("4242424242424242"),
			chromedp.Sleep(1500*time.Millisecond), // the 1s secret expires
			chromedp.Click("#buy", chromedp.ByID),
			chromedp.WaitVisible("#result.error", chromedp.ByQuery),
			chromedp.Text("#result", &result, chromedp.ByID),
		)
		if err != nil {
			t.Fatal(err)
		}
		if result != "Your checkout session has expired: reload the page to start again." {
			t.Fatalf("result %q, want the expired message", result)
		}
	})
}

// openCheckout signs in as a customer does (the sign-in form posts the email with its
// CSRF token) and waits for the component's quote on the checkout page.
func openCheckout(baseURL, email string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.Navigate(baseURL),
		chromedp.SetValue(`input[name="email"]`, email, chromedp.ByQuery),
		chromedp.Click(`button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`insurance-gap-medical[data-quote-id]`, chromedp.ByQuery),
	}
}

func fillCard(number string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.SendKeys(`input[name="card-number"]`, number, chromedp.ByQuery),
		chromedp.SendKeys(`input[name="card-expiry"]`, "12/30", chromedp.ByQuery),
		chromedp.SendKeys(`input[name="card-cvc"]`, "123", chromedp.ByQuery),
		chromedp.SendKeys("#holder-name", "Ada Lovelace", chromedp.ByID),
		chromedp.SendKeys("#holder-postal", "62701", chromedp.ByID),
	}
}

// newBrowser starts headless Chromium with a fresh profile and no outside network.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path := os.Getenv("CHROMIUM")
	if path == "" {
		path = "/usr/bin/chromium"
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("Chromium not found at %s (install Debian's chromium, or set CHROMIUM): %v", path, err)
	}
	// A fresh profile; removed by hand, as Chromium may still write to it while it exits.
	profile, err := os.MkdirTemp("", "e2e-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(profile),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-quic", true),
		chromedp.WindowSize(900, 760),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		_ = os.RemoveAll(profile)
	})
	if err := chromedp.Run(ctx); err != nil { // starts the browser
		t.Fatalf("starting Chromium: %v", err)
	}
	return ctx
}

// newTab opens a tab with a time limit, failing the test on the page's uncaught
// exceptions and on anything its Content-Security-Policy refused (the page's own
// script and the component must run under it).
func newTab(t *testing.T, browser context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	ctx, cancelTimeout := context.WithTimeout(ctx, 30*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancel() })
	chromedp.ListenTarget(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			t.Errorf("page exception: %s", e.ExceptionDetails.Error())
		case *log.EventEntryAdded:
			if strings.Contains(e.Entry.Text, "Content Security Policy") {
				t.Errorf("the page's Content-Security-Policy refused something: %s", e.Entry.Text)
			}
		}
	})
	return ctx
}

// startCheckout builds and runs examples/gap-medical-checkout on a free port, as a
// partner would with go run, and returns its URL.
func startCheckout(t *testing.T, args ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "checkout")
	build := exec.Command("go", "build", "-o", bin, "./examples/gap-medical-checkout")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the checkout: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "INSURANCE_BASE_URL=")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })

	found := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			if rest, ok := strings.CutPrefix(lines.Text(), "Checkout on "); ok {
				url, _, _ := strings.Cut(rest, " ")
				found <- url
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(time.Minute):
		t.Fatal("the checkout printed no URL")
		return ""
	}
}

func saveArtifact(t *testing.T, name string, data []byte) {
	t.Helper()
	dir := os.Getenv("E2E_ARTIFACTS")
	if dir == "" {
		dir = "artifacts"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	t.Logf("screenshot of the success page: %s", abs)
}
