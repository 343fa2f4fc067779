package listing

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cryptocost/cryptocost/scheme"
)

// TestRequestFilter reads families and the security range, and refuses
// an unknown family, a bad range and a name no scheme has. Tier: fast.
func TestRequestFilter(t *testing.T) {
	f, err := Request{Globs: []string{"SHA-*"}, Families: []string{"hash"}, Security: "112+", NoLegacy: true}.Filter()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Families) != 1 || f.Families[0] != scheme.FamilyHash || f.MinBits != 112 || f.MaxBits < 256 || !f.NoLegacy {
		t.Errorf("filter %+v", f)
	}
	for _, bad := range []Request{
		{Families: []string{"hashes!"}},
		{Security: "lots"},
		{Globs: []string{"NoSuchScheme-9"}},
	} {
		if _, err := bad.Filter(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestRequestWrite lists the schemes selected or the providers, and
// says when none match or the format is unknown, in list's words.
// Tier: fast.
func TestRequestWrite(t *testing.T) {
	for _, c := range []struct {
		req       Request
		out, fail string
	}{
		{req: Request{Globs: []string{"SHA-256"}, Format: "table"}, out: "SHA-256"},
		{req: Request{Globs: []string{"SHA-256"}, Format: "json"}, out: `"SHA-256"`},
		{req: Request{ListProviders: true, Format: "table"}, out: "PROVIDER"},
		{req: Request{Globs: []string{"SHA-256"}, Families: []string{"sign"}, Format: "table"}, fail: "no algorithm matches these filters"},
		{req: Request{Globs: []string{"SHA-256"}, Format: "csv"}, fail: `unknown format "csv" for list: want table or json`},
	} {
		var out bytes.Buffer
		err := c.req.Write(&out)
		if c.fail != "" {
			if err == nil || err.Error() != c.fail {
				t.Errorf("%+v: err = %v, want %q", c.req, err, c.fail)
			}
			continue
		}
		if err != nil || !strings.Contains(out.String(), c.out) {
			t.Errorf("%+v: %v, output without %q:\n%s", c.req, err, c.out, out.String())
		}
	}
}
